#!/usr/bin/env python3
"""compare-json.py [--table OLD=NEW ...] BEFORE AFTER [AFTER ...]: do two runs' --json files have the same rows,
columns, claims and verdicts? Several AFTER files are one run split in several experiments (a row in two of them
must be the same). --table OLD=NEW: a split moved rows of table OLD to table NEW; an AFTER row of table NEW is
matched with a BEFORE row of table OLD.

Rows are matched by table, variant and parameters; for each, the names of its values (the columns), its
verdict, and the text and verdict of each of its claims and checks are compared, then the run's own claims.
A row's claims are compared as a set: their order is how they are printed, not what they say. Numbers are
not compared (two runs never time the same). Prints one line per difference, then SAME or
the count. Exit: 0 same, 1 different, 2 a usage error or a file that cannot be read.
"""
import json
import sys


def load(path, rename=None):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(print("compare-json.py: cannot read %s: %s" % (path, e), file=sys.stderr) or 2)
    rows = {}
    for r in d.get("rows", []):
        table = r.get("table")
        key = ((rename or {}).get(table, table), r.get("variant"),
               tuple((k, str(v.get("value"))) for k, v in sorted(r.get("params", {}).items())))
        rows[key] = {"verdict": r.get("verdict"), "columns": sorted(r.get("values", {})),
                     "claims": sorted((c.get("text"), c.get("verdict")) for c in r.get("claims", []))}
    run = [(c.get("text"), c.get("verdict")) for c in d.get("run_claims", [])]
    return d, rows, run


def main():
    args, rename = sys.argv[1:], {}
    while len(args) >= 2 and args[0] == "--table":
        new_old = args[1].split("=")
        if len(new_old) != 2 or not all(new_old):
            break
        rename[new_old[1]] = new_old[0]
        args = args[2:]
    if len(args) < 2 or args[0].startswith("--"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    b, brows, brun = load(args[0])
    arows, arun, verdicts, diffs = {}, [], [], []
    for path in args[1:]:
        a, rows, run = load(path, rename)
        verdicts.append(a.get("verdict"))
        arun += run
        for k, r in rows.items():
            if k in arows and arows[k] != r:
                diffs.append("%s %s: differs between the after files" % (k[0], k[1]))
            arows[k] = r
    print("verdict %s -> %s; rows %d -> %d" % (b.get("verdict"), ", ".join(map(str, verdicts)), len(brows), len(arows)))
    diffs += ["only before: %s" % (k,) for k in brows if k not in arows]
    diffs += ["only after: %s" % (k,) for k in arows if k not in brows]
    for k in brows:
        if k in arows:
            diffs += ["%s %s: %s %s -> %s" % (k[0], k[1], what, brows[k][what], arows[k][what])
                      for what in ("verdict", "columns", "claims") if brows[k][what] != arows[k][what]]
    if brun != arun:
        diffs.append("run claims: %s -> %s" % (brun, arun))
    for line in diffs:
        print("  " + line)
    print("SAME rows, columns, claims and verdicts" if not diffs else "%d differences" % len(diffs))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
