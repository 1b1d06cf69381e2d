#!/usr/bin/env python3
"""Check gridlab's output files with independent parsers (json, csv).

  check_outputs.py trace FILE [--events N] [--runs N] [--tracks "stream 0,stream 1"] [--block-sms] [--flows N]
  check_outputs.py report FILE [--rows N] [--verdict PASS|FAIL] [--claims-verdict PASS]
  check_outputs.py csv FILE [--rows N] [--columns a,b,c] [--cell ROW:COLUMN=VALUE ...]
  check_outputs.py json FILE --expect PATH=VALUE [--expect ...]

A PATH is dot-separated keys and list indices (rows.0.claims.1.verdict). A
VALUE is compared with a string as is, with a number as a number, and with
true, false and null by name. Exits 0 when the file parses and matches, 1 with
a reason otherwise.
"""
import argparse
import csv
import json
import sys


def fail(msg):
    print(f"check_outputs: {msg}", file=sys.stderr)
    sys.exit(1)


def check_trace(a):
    with open(a.file) as f:
        doc = json.load(f)
    events = doc.get("traceEvents")
    if not isinstance(events, list):
        fail("no traceEvents list")
    slices = [e for e in events if e.get("ph") == "X"]
    procs = [e for e in events if e.get("ph") == "M" and e.get("name") == "process_name"]
    threads = {(e["pid"], e["args"]["name"]) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    flow_starts = [e for e in events if e.get("ph") == "s"]
    flow_ends = [e for e in events if e.get("ph") == "f"]
    if a.events is not None and len(slices) != a.events:
        fail(f"{len(slices)} slices, expected {a.events}")
    if a.runs is not None and len(procs) != a.runs:
        fail(f"{len(procs)} runs (processes), expected {a.runs}")
    if a.flows is not None and (len(flow_starts) != a.flows or len(flow_ends) != a.flows):
        fail(f"{len(flow_starts)} flow starts and {len(flow_ends)} ends, expected {a.flows}")
    if {e["id"] for e in flow_starts} != {e["id"] for e in flow_ends}:
        fail("flow starts and ends do not pair up")
    names = {n for _, n in threads}
    proc_names = {e["pid"]: e["args"]["name"] for e in procs}
    for t in filter(None, (a.tracks or "").split(",")):
        if t not in names:
            fail(f"track '{t}' missing; tracks: {sorted(names)}")
    for e in slices:
        for key in ("name", "ts", "dur", "pid", "tid", "args"):
            if key not in e:
                fail(f"slice without {key}: {e}")
        if e["ts"] < 0 or e["dur"] < 0:
            fail(f"negative time in {e}")
        for key in ("kernel", "blocks", "threads", "sm"):
            if key not in e["args"]:
                fail(f"slice args without {key}: {e}")
        if not any(pid == e["pid"] for pid, _ in threads):
            fail(f"slice on a process without named tracks: {e}")
        # A model's run (a simulated timeline) has no blocks on SMs to show.
        if a.block_sms and "model" not in proc_names.get(e["pid"], "") and \
                len(e["args"].get("block_sms", [])) != e["args"]["blocks"]:
            fail(f"block_sms does not list one SM per block: {e}")


def check_report(a):
    with open(a.file) as f:
        doc = json.load(f)
    for key in ("experiment", "verdict", "rows", "tally", "run_claims"):
        if key not in doc:
            fail(f"report without {key}")
    rows = doc["rows"]
    if a.rows is not None and len(rows) != a.rows:
        fail(f"{len(rows)} rows, expected {a.rows}")
    if a.verdict and doc["verdict"] != a.verdict:
        fail(f"verdict {doc['verdict']}, expected {a.verdict}")
    for r in rows:
        for key in ("experiment", "device", "table", "variant", "verdict", "params", "values", "claims"):
            if key not in r:
                fail(f"row without {key}: {r}")
        for name, v in r["values"].items():
            if v["type"] == "stats" and v["n"] > 0 and not (v["min"] <= v["median"] <= v["max"]):
                fail(f"value {name}: min <= median <= max does not hold")
        for c in r["claims"]:
            if c["verdict"] not in ("PASS", "FAIL", "SKIP"):
                fail(f"claim verdict {c['verdict']}")
            if a.claims_verdict and c["verdict"] != a.claims_verdict:
                fail(f"claim '{c['text']}' is {c['verdict']}, expected {a.claims_verdict}")


def check_csv(a):
    with open(a.file, newline="") as f:
        rows = list(csv.DictReader(f))
        f.seek(0)
        header = next(csv.reader(f))
    if a.rows is not None and len(rows) != a.rows:
        fail(f"{len(rows)} rows, expected {a.rows}")
    for col in filter(None, (a.columns or "").split(",")):
        if col not in header:
            fail(f"column '{col}' missing; header: {header}")
    for r in rows:
        if None in r:
            fail(f"row with more fields than the header: {r}")
    for cell in a.cell or []:
        where, _, want = cell.partition("=")
        row, _, col = where.partition(":")
        got = rows[int(row)].get(col)
        if got != want:
            fail(f"row {row} column {col} is {got!r}, expected {want!r}")


def lookup(doc, path):
    node = doc
    for part in path.split("."):
        if isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict):
            if part not in node:
                fail(f"{path}: no key '{part}' (keys: {sorted(node)})")
            node = node[part]
        else:
            fail(f"{path}: '{part}' is inside a {type(node).__name__}")
    return node


def check_json(a):
    with open(a.file) as f:
        doc = json.load(f)
    for e in a.expect or []:
        path, _, want = e.partition("=")
        got = lookup(doc, path)
        if isinstance(got, bool) or got is None:
            ok = json.dumps(got) == want
        elif isinstance(got, (int, float)):
            ok = float(want) == float(got)
        else:
            ok = got == want
        if not ok:
            fail(f"{path} is {got!r}, expected {want!r}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["trace", "report", "csv", "json"])
    p.add_argument("file")
    p.add_argument("--events", type=int)
    p.add_argument("--runs", type=int)
    p.add_argument("--flows", type=int)
    p.add_argument("--tracks")
    p.add_argument("--block-sms", action="store_true")
    p.add_argument("--rows", type=int)
    p.add_argument("--verdict")
    p.add_argument("--claims-verdict")
    p.add_argument("--columns")
    p.add_argument("--cell", action="append")
    p.add_argument("--expect", action="append")
    a = p.parse_args()
    try:
        {"trace": check_trace, "report": check_report, "csv": check_csv, "json": check_json}[a.kind](a)
    except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
        fail(f"{a.file}: {e}")


if __name__ == "__main__":
    main()
