#!/usr/bin/env python3
"""Check gridlab's output files with independent parsers (json, csv).

  validate.py trace FILE [--events N] [--runs N] [--tracks "stream 0,stream 1"] [--block-sms]
  validate.py report FILE [--rows N] [--verdict PASS|FAIL] [--claims-verdict PASS]
  validate.py csv FILE [--rows N] [--columns a,b,c]

Exits 0 when the file parses and matches, 1 with a reason otherwise.
"""
import argparse
import csv
import json
import sys


def fail(msg):
    print(f"validate: {msg}", file=sys.stderr)
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
    if a.events is not None and len(slices) != a.events:
        fail(f"{len(slices)} kernel slices, expected {a.events}")
    if a.runs is not None and len(procs) != a.runs:
        fail(f"{len(procs)} runs (processes), expected {a.runs}")
    names = {n for _, n in threads}
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
        if a.block_sms and len(e["args"].get("block_sms", [])) != e["args"]["blocks"]:
            fail(f"block_sms does not list one SM per block: {e}")


def check_report(a):
    with open(a.file) as f:
        doc = json.load(f)
    for key in ("experiment", "verdict", "rows", "checks"):
        if key not in doc:
            fail(f"report without {key}")
    rows = doc["rows"]
    if a.rows is not None and len(rows) != a.rows:
        fail(f"{len(rows)} rows, expected {a.rows}")
    if a.verdict and doc["verdict"] != a.verdict:
        fail(f"verdict {doc['verdict']}, expected {a.verdict}")
    for r in rows:
        for key in ("experiment", "device", "variant", "params", "metrics", "claims"):
            if key not in r:
                fail(f"row without {key}: {r}")
        for name, m in r["metrics"].items():
            if m["n"] > 0 and not (m["min"] <= m["median"] <= m["max"]):
                fail(f"metric {name}: min <= median <= max does not hold")
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


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["trace", "report", "csv"])
    p.add_argument("file")
    p.add_argument("--events", type=int)
    p.add_argument("--runs", type=int)
    p.add_argument("--tracks")
    p.add_argument("--block-sms", action="store_true")
    p.add_argument("--rows", type=int)
    p.add_argument("--verdict")
    p.add_argument("--claims-verdict")
    p.add_argument("--columns")
    a = p.parse_args()
    try:
        {"trace": check_trace, "report": check_report, "csv": check_csv}[a.kind](a)
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{a.file}: {e}")


if __name__ == "__main__":
    main()
