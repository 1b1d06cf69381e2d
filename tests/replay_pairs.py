#!/usr/bin/env python3
"""replay_pairs.py - the copy-kernel pairs of an nsys SQLite export, counted without the replay's code, for the
command-line tests to check the replay's pooled copy gaps (src/replay/fit.h, rp_fit and rp_fit_pool) against.

A pair is a kernel, copy or memset and the one before it in its stream (by GPU start) that had not ended when its
call returned, started 0 to 100 us after that one's end: a pinned H2D or D2H after a kernel, or a kernel after a
pinned H2D or D2H. Prints one line of seven pairs and lower medians in us: each kind (H2D after a kernel, D2H after
a kernel, a kernel after an H2D, a kernel after a D2H), then each pool (copies after kernels, kernels after copies,
all four kinds); any of fewer than 4 pairs as its count and 0.00.

    python3 tests/replay_pairs.py TRACE.sqlite

For traces of one process without graph launches: the replay takes a graph's nodes apart, this counts them as
kernels of their own.
"""
import sqlite3
import sys

H2D, D2H = 1, 2  # CUPTI's copyKind
PAGEABLE = 0     # the export's memory kind of a pageable host buffer (1 pinned, 2 device)


def lower_median(values):
    v = sorted(values)
    return v[(len(v) + 1) // 2 - 1]


def main(path):
    db = sqlite3.connect(path)
    returned = dict(db.execute("SELECT correlationId, end FROM CUPTI_ACTIVITY_KIND_RUNTIME"))
    work = []  # (start, end, stream, call's return, what): what is "K", "H2D", "D2H" (pinned) or "other"
    for start, end, stream, cid in db.execute(
            "SELECT start, end, streamId, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL"):
        work.append((start, end, stream, returned.get(cid), "K"))
    for start, end, stream, cid, kind, src, dst in db.execute(
            "SELECT start, end, streamId, correlationId, copyKind, srcKind, dstKind FROM CUPTI_ACTIVITY_KIND_MEMCPY"):
        host = src if kind == H2D else dst
        what = {H2D: "H2D", D2H: "D2H"}.get(kind, "other") if host != PAGEABLE else "other"
        work.append((start, end, stream, returned.get(cid), what))
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "CUPTI_ACTIVITY_KIND_MEMSET" in tables:  # an export without memsets has no such table
        for start, end, stream, cid in db.execute(
                "SELECT start, end, streamId, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET"):
            work.append((start, end, stream, returned.get(cid), "other"))
    kinds = {("K", "H2D"): 0, ("K", "D2H"): 1, ("H2D", "K"): 2, ("D2H", "K"): 3}
    pairs = [[], [], [], []]
    last = {}
    for op in sorted((w for w in work if w[3] is not None), key=lambda w: w[0]):
        prev = last.get(op[2])
        last[op[2]] = op
        if prev is None or not prev[1] > op[3]:
            continue
        gap = op[0] - prev[1]
        if 0 <= gap < 100e3 and (prev[4], op[4]) in kinds:
            pairs[kinds[(prev[4], op[4])]].append(gap)
    pools = [pairs[0] + pairs[1], pairs[2] + pairs[3], sum(pairs, [])]
    print(" ".join("%d %.2f" % (len(p), lower_median(p) / 1e3 if len(p) >= 4 else 0) for p in pairs + pools))


if __name__ == "__main__":
    main(sys.argv[1])
