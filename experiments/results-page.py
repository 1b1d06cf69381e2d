#!/usr/bin/env python3
"""results-page.py - one page per GPU of what experiments/record.sh recorded.

    python3 experiments/results-page.py [--dir experiments/results] [GPU ...]

For each folder DIR/<gpu>/ (or only the GPUs named), reads every recorded file
there and writes DIR/<gpu>/RESULTS.md: one section per experiment, in the order
of `experiments/record.sh --list`, each record with the command that produced
it, its device line and date, and its tables (the columns the terminal shows,
statistics as their median), claim verdicts and findings. The records of the
scripts (validate-model, claim sweep, sanitize-all) are summarized and linked.
Works on any subset of the files and says which records are missing.
The date and driver of a record come from DIR/<gpu>/record.log (written by
record.sh), else from the file's modification time.

Exit codes: 0 pages written, 2 bad arguments or nothing to read.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GL_HIDE, GL_SHOW_MIN, GL_SHOW_NOISE = 1, 2, 4  # src/core/gl_report.h


# ---- what record.sh records --------------------------------------------------------------

def recorded_commands(folder):
    """record.sh --list as [(label, kind, backs, command)], its paths naming this folder."""
    out = subprocess.run(["bash", os.path.join(HERE, "record.sh"), "--list", "--dir",
                          "experiments/results/" + folder], stdout=subprocess.PIPE, text=True, check=True).stdout
    return [tuple(line.split(" | ", 3)) for line in out.splitlines() if line and not line.startswith("#")]


def record_log(path):
    """The last record.log entry of each label: {label: (date, exit, seconds, driver, command)}."""
    entries = {}
    try:
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) == 6:
                entries[f[1]] = (f[0], f[2], f[3], f[4], f[5])
    except OSError:
        pass
    return entries


def files_of(label, kind):
    """The files a command writes, by extension or name, in the order the page uses them."""
    if kind != "tool":
        return [label + e for e in (".json", ".txt", ".csv")]
    return {"validate-model": ["validate-model.json", "validate-model.txt", "validate-model.csv",
                               "validate-model-events.json", "validate-model-events.md", "validate-model-events.csv"],
            "claim-sweep": ["claim-sweep.txt", "claim-sweep.md"],
            "sanitize-all": ["sanitize-all.txt"],
            "hyperq-plot": ["hyperq-sweep.png", "hyperq-sweep.svg"]}.get(label, [label + ".txt"])


# ---- cells ---------------------------------------------------------------------------------

def number(x, precision):
    """A number as its display hint says (src/core/output.c): fixed precision, or shortest."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return "%.*f" % (precision, x) if precision >= 0 else "%g" % x


def cell(v, part):
    """One cell of a value: its number or text, or a statistic's median, min or noise."""
    if v is None:
        return ""
    if v["type"] == "text":
        s = str(v["value"])
    elif v["type"] == "stats":
        s = number(100 * v["rsd"], 2) if part == "noise" else number(v[part], v["precision"])
    else:
        s = number(v["value"], v["precision"])
    return s.replace("|", "\\|").replace("\n", " ")


def header(name, v, part):
    """"makespan_ms" -> "makespan ms", as the terminal table heads it."""
    h = name.replace("_", " ") + {"min": " min", "noise": " noise %"}.get(part, "")
    return h + (" " + v["unit"] if v.get("unit") and part != "noise" else "")


def numeric(s):
    """Whether a cell is a number (right-aligned, as the terminal aligns it)."""
    return bool(s) and bool(re.fullmatch(r"[-+0-9.eE]+", s)) and any(c.isdigit() for c in s)


def markdown_table(head, rows):
    """A markdown table, numeric columns right-aligned."""
    align = ["---:" if all(numeric(r[i]) or r[i] in ("", "-") for r in rows) and any(numeric(r[i]) for r in rows)
             else "---" for i in range(len(head))]
    return ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"] + ["| " + " | ".join(r) + " |" for r in rows]


# ---- an experiment's JSON ------------------------------------------------------------------

def render_table(name, rows):
    """One table of an experiment: parameters the rows share on one line, the rest as columns, then its claims."""
    cols, seen = [], set()  # (kind, name, part)
    for r in rows:
        for kind in ("params", "values"):
            for n, v in r[kind].items():
                if v.get("flags", 0) & GL_HIDE:
                    continue
                parts = ["value"] if v["type"] != "stats" else \
                    ["median"] + ["min"] * bool(v["flags"] & GL_SHOW_MIN) + ["noise"] * bool(v["flags"] & GL_SHOW_NOISE)
                for p in parts:
                    if (kind, n, p) not in seen:
                        seen.add((kind, n, p))
                        cols.append((kind, n, p))
    shared = []
    if len(rows) > 1:
        for c in [c for c in cols if c[0] == "params"]:
            texts = {cell(r["params"].get(c[1]), c[2]) for r in rows}
            if len(texts) == 1:
                shared.append("%s %s" % (c[1].replace("_", " "), texts.pop()))
                cols.remove(c)
    head = ["variant"] + [header(n, next(r[k][n] for r in rows if n in r[k]), p) for k, n, p in cols] + ["verdict"]
    body = []
    for r in rows:
        verdict = {"NONE": "-"}.get(r["verdict"], r["verdict"])
        if r.get("skip_reason"):
            verdict += " (%s)" % r["skip_reason"]
        body.append([r["variant"]] + [cell(r[k].get(n), p) for k, n, p in cols] + [verdict.replace("|", "\\|")])
    out = ["#### table `%s`" % name, ""]
    if shared:
        out += ["In every row: " + ", ".join(shared) + ".", ""]
    out += markdown_table(head, body) + [""]
    claims = [c for r in rows for c in r.get("claims", [])]
    out += render_claims(claims)
    return out


def render_claims(claims):
    """A count of claims and checks by verdict, every one that did not pass, and all of them folded."""
    if not claims:
        return []
    count = {}
    for c in claims:
        what = "checks" if c.get("kind") == "data" else "claims"
        count[(what, c["verdict"])] = count.get((what, c["verdict"]), 0) + 1
    line = "; ".join("%s %s" % (what, ", ".join("%d %s" % (n, v) for (w, v), n in sorted(count.items()) if w == what))
                     for what in ("claims", "checks") if any(w == what for w, _ in count))
    out = [line + "."]
    for c in claims:
        if c["verdict"] not in ("PASS",):
            out.append("- **%s** %s (%s)" % (c["verdict"], c["text"], c.get("evidence", "")))
    out += ["", "<details><summary>every claim and check</summary>", ""]
    out += ["- %s %s (%s)" % (c["verdict"], c["text"], c.get("evidence", "")) for c in claims]
    return out + ["", "</details>", ""]


def device_line(doc, txt_lines):
    """The device line the run printed, else one made from the JSON's device."""
    for line in txt_lines:
        if line.startswith("device "):
            return line
    d = doc.get("device") or next((r["device"] for r in doc.get("rows", []) if r.get("device")), {})
    if not d:
        return "device: not recorded"
    first_row = "" if doc.get("device") else " (the first row's)"
    ver = lambda s: "%d.%d" % (int(s) // 1000, int(s) % 1000 // 10) if str(s).isdigit() else s
    line = "device: %s | cc %s | %s SMs" % (d.get("name", "?"), d.get("cc", "?"), d.get("sms", "?"))
    if str(d.get("l2_bytes", "")).isdigit():
        line += " | L2 %d MiB" % (int(d["l2_bytes"]) >> 20)
    line += " | CUDA driver %s | runtime %s" % (ver(d.get("driver", "?")), ver(d.get("runtime", "?")))
    if d.get("max_connections"):
        line += " | CUDA_DEVICE_MAX_CONNECTIONS %s" % d["max_connections"]
    if d.get("peak_dram_gbps"):
        line += " | DRAM peak %s GB/s" % d["peak_dram_gbps"] + (", copy %s GB/s" % d["copy_gbps"] if d.get("copy_gbps") else "")
    return line + first_row


def render_experiment_json(doc):
    """Every table of one experiment's JSON, in the order its rows came."""
    tally = doc.get("tally", {})
    out = ["Verdict: **%s** (claims: %s passed, %s failed, %s skipped; checks: %s passed, %s failed)." % (
        doc.get("verdict", "?"), tally.get("claims_passed", 0), tally.get("claims_failed", 0),
        tally.get("claims_skipped", 0), tally.get("checks_passed", 0), tally.get("checks_failed", 0)), ""]
    tables = []
    for r in doc.get("rows", []):
        if r["table"] not in tables:
            tables.append(r["table"])
    for t in tables:
        out += render_table(t, [r for r in doc["rows"] if r["table"] == t])
    if doc.get("run_claims"):
        out += ["#### claims on the whole run", ""] + render_claims(doc["run_claims"])
    return out


# ---- the scripts' records ------------------------------------------------------------------

def render_validate(doc, what):
    """validate-model's summary: the error distribution against its bounds."""
    s = doc["summary"]
    b = s.get("bounds", {})
    rows = [["makespan error vs model (%)"] + [number(s["makespan_error_pct"][k], 2) for k in ("median", "p90", "max")]
            + ["p90 <= %s, max <= %s" % (b.get("makespan_p90_pct"), b.get("makespan_max_pct"))]]
    for key, label in (("textbook_error_pct", "makespan error vs textbook (%)"),
                       ("start_error_pct_of_T", "kernel start error (% of T)"), ("start_error_us", "kernel start error (us)")):
        if key in s:
            rows.append([label] + [number(s[key][k], 2) for k in ("median", "p90", "max")] + [""])
    n = s.get("shapes", s.get("programs"))
    took = " (%s s of GPU time)" % s["seconds"] if s.get("seconds") is not None else ""
    out = ["%s %s on %s%s: verdict **%s**." % (n, what, s.get("gpu"), took, s.get("verdict")), ""]
    out += markdown_table(["measure", "median", "p90", "max", "bound"], rows)
    out += ["", "Peak concurrency exact in %.0f%% of them (bound %.0f%%)." % (100 * s["peak_exact_fraction"],
                                                                           100 * b.get("peak_exact_fraction", 0))]
    if "edges_held_programs" in s:
        out[-1] += " Every edge held in every run in %s of %s." % (s["edges_held_programs"], n)
    return out + [""]


def render_text(path, name):
    """A text record: what it says in short, and the whole of it folded."""
    lines = open(path, errors="replace").read().splitlines()
    out = []
    if name.startswith("sanitize-all"):
        runs = [l for l in lines if l.startswith("sanitize ") and ": " in l]
        kinds = {}
        for l in runs:
            v = l.split(": ", 1)[1].split(" (")[0]
            kinds[v] = kinds.get(v, 0) + 1
        out += ["%d runs: %s. %s" % (len(runs), ", ".join("%d %s" % (n, v) for v, n in sorted(kinds.items())),
                                    next((l for l in lines if l.startswith("sanitize-all:")), ""))]
        lines = [l for l in lines if l.startswith(("#", "sanitize"))]
    elif name.startswith("claim-sweep"):
        table = [l for l in lines if l.startswith("|")]
        out += table + [""] + [l for l in lines if l.startswith("claim sweep:")]
    else:
        judged = [l for l in lines if l.startswith(("CLAIM", "CHECK"))]
        out += ["%d claims and checks, %d PASS." % (len(judged), sum(line_verdict(l) == "PASS" for l in judged))]
        out += ["- " + l for l in judged if line_verdict(l) != "PASS"]
        out += ["- " + l for l in lines if l.startswith(("verdict:", "finding:"))] + [""]
        for i, l in enumerate(lines):  # the terminal's tables are markdown already: "name:", then rows
            if l.startswith("|") and i > 0 and lines[i - 1].endswith(":") and not lines[i - 1].startswith("|"):
                out += ["#### table `%s` (from the terminal output)" % lines[i - 1][:-1], ""]
            if l.startswith("|"):
                out.append(l)
                if not lines[i + 1:i + 2] or not lines[i + 1].startswith("|"):
                    out.append("")
    return out + [""] + fold(name, lines)


def line_verdict(line):
    """The verdict a CHECK or CLAIM line gives: PASS, FAIL, SKIP, or "" when it gives none."""
    m = re.search(r": (PASS|FAIL|SKIP)\b", line)
    return m.group(1) if m else ""


def fold(name, lines, fence=True):
    """A whole record, folded: shown when the reader opens it."""
    body = ["```"] + lines + ["```"] if fence else [re.sub(r"^(#+)", r"\1###", l) for l in lines]
    return ["<details><summary>%s (%d lines)</summary>" % (name, len(lines)), ""] + body + ["", "</details>", ""]


# ---- one GPU's page ------------------------------------------------------------------------

def experiment_of(label, kind, command, known):
    """The section a command belongs to: its binary's name, or the experiment its label starts with."""
    if kind != "tool":
        return os.path.basename(command.split()[0])
    return next((e for e in known if label.startswith(e + "-")), label)


def page(folder_path, folder):
    """One GPU folder's RESULTS.md, as lines, and the records it lacks as [(label, command)]."""
    commands = recorded_commands(folder)
    log = record_log(os.path.join(folder_path, "record.log"))
    present = set(os.listdir(folder_path))
    sections, claimed, missing = [], {"RESULTS.md", "record.log"}, []
    for label, kind, backs, command in commands:
        exp = experiment_of(label, kind, command, [s[0] for s in sections])
        if not sections or sections[-1][0] != exp:
            sections.append((exp, []))
        files = [f for f in files_of(label, kind) if f in present]
        claimed.update(files_of(label, kind))
        sections[-1][1].append((label, kind, backs, command, files))
        if not files:
            missing.append((label, command))
    others = sorted(f for f in present - claimed if not os.path.isdir(os.path.join(folder_path, f)))
    gpu = folder
    for f in sorted(present):
        if f.endswith(".json"):
            try:
                doc = json.load(open(os.path.join(folder_path, f)))
                d = doc.get("device") or next((r["device"] for r in doc.get("rows", []) if r.get("device")), {})
                gpu = d.get("name") or doc.get("summary", {}).get("gpu") or gpu
                break
            except (OSError, ValueError, AttributeError):
                continue

    out = ["# Results on %s" % gpu, "",
           "Generated by `python3 experiments/results-page.py` from the files recorded in this folder "
           "(`experiments/results/%s/`) by `experiments/record.sh`; edit neither by hand: record again and "
           "regenerate. What the numbers mean, and the tables recorded before record.sh, are in "
           "[FINDINGS.md](../FINDINGS.md); the commands and what to look for, in the [README](../../../README.md)." % folder, ""]
    dates = sorted({e[0][:10] for e in log.values()})
    drivers = sorted({e[3] for e in log.values() if e[3]})
    out += ["Recorded %d of %d commands%s%s." % (len(commands) - len(missing), len(commands),
                                              "; dates " + ", ".join(dates) if dates else "; no record.log (dates are the files')",
                                              "; driver " + ", ".join(drivers) if drivers else ""), ""]
    if missing:
        out += ["Missing (record with `experiments/record.sh --only LABEL` on this GPU):", ""]
        out += ["- `%s`: `%s`" % (label, command) for label, command in missing] + [""]
    out += ["Sections: " + ", ".join("[%s](#%s)" % (e, e) for e, _ in sections) + (", [other records](#other-records)" if others else ""), ""]

    for exp, records in sections:
        out += ["## %s" % exp, ""]
        for label, kind, backs, command, files in records:
            out += ["### %s" % label, ""]
            where = "experiments/results/%s/%s" % (folder, label)
            if kind != "tool":
                command += " --json %s.json" % where + (" --csv %s.csv" % where if kind == "csv" else "")
            entry = log.get(label)
            out += ["Command: `%s`  " % (entry[4] if entry else command), "Backs: %s.  " % backs]
            if not files:
                out += ["**Not recorded on this GPU.**", ""]
                continue
            when = "recorded %s, exit %s, %s s%s" % (entry[0], entry[1], entry[2], ", driver " + entry[3] if entry[3] else "") \
                if entry else "no record.log entry (file modified %s)" % time.strftime(
                    "%Y-%m-%d", time.gmtime(os.path.getmtime(os.path.join(folder_path, files[0]))))
            out += ["Files: " + ", ".join("[%s](%s)" % (f, f) for f in files) + "; " + when + ".", ""]
            out += render_files(folder_path, files)
    if others:
        out += ["## other records", "", "Files no record.sh command writes:", ""]
        for f in others:
            out += ["### %s" % f, ""] + render_files(folder_path, [f])
    return out, missing


def render_files(folder_path, files):
    """The body of one record: its JSON as tables, its text's device line, claims and findings."""
    out = []
    path = lambda f: os.path.join(folder_path, f)
    txt = [f for f in files if f.endswith(".txt")]
    txt_lines = open(path(txt[0]), errors="replace").read().splitlines() if txt else []
    summary = False  # a script's JSON summary: its text and markdown records are folded under it
    for f in files:
        try:
            if f.endswith(".json"):
                doc = json.load(open(path(f)))
                if "summary" in doc:
                    summary = True
                    out += render_validate(doc, "random shapes" if "shapes" in doc else "random stream-event programs")
                else:
                    out += ["`" + device_line(doc, txt_lines) + "`", ""] + render_experiment_json(doc)
                    if txt_lines:
                        out += ["- " + l for l in txt_lines if l.startswith("finding:")] + [""]
            elif f.endswith(".md") and summary:
                out += fold(f, open(path(f)).read().splitlines(), fence=False)
            elif f.endswith(".md"):
                out += [re.sub(r"^(#+)", r"\1###", l) for l in open(path(f)).read().splitlines()] + [""]
            elif f.endswith(".txt") and summary:
                out += fold(f, open(path(f)).read().splitlines())
            elif f.endswith(".txt") and not any(g.endswith(".json") for g in files):
                if not f.startswith(("sanitize", "claim")):
                    out += ["`" + device_line({}, txt_lines) + "`", ""]
                out += render_text(path(f), f)
            elif f.endswith(".png"):
                out += ["![%s](%s)" % (f, f), ""]
        except (OSError, ValueError, KeyError, TypeError) as e:
            out += ["**%s could not be read: %s**" % (f, e), ""]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=os.path.join(HERE, "results"), help="the results folder (default experiments/results)")
    ap.add_argument("gpus", nargs="*", help="the GPU folders to write (default: every one)")
    a = ap.parse_args()
    if not os.path.isdir(a.dir):
        print("error: %s is not a folder" % a.dir, file=sys.stderr)
        return 2
    folders = a.gpus or sorted(f for f in os.listdir(a.dir) if os.path.isdir(os.path.join(a.dir, f)))
    if not folders:
        print("error: %s has no GPU folders (experiments/record.sh makes them)" % a.dir, file=sys.stderr)
        return 2
    for folder in folders:
        fp = os.path.join(a.dir, folder)
        if not os.path.isdir(fp):
            print("error: %s is not a folder" % fp, file=sys.stderr)
            return 2
        lines, missing = page(fp, folder)
        with open(os.path.join(fp, "RESULTS.md"), "w") as f:
            f.write("\n".join(lines).rstrip("\n") + "\n")
        print("%s/RESULTS.md: %d lines; %d records missing%s" % (
            fp, len(lines), len(missing), ": " + ", ".join(m[0] for m in missing) if missing else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
