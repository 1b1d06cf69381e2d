# hostfn_runsign.py PROGRAM_DUMP RECORDING (LO=, HI= us): how often a host function's own stream, and its thread's
# other streams, show a run of the driver's host-function thread ending just before their next kernel or copy
# (session 31, section 4). For each host function (its stream from the program dump, hostfn_placement.py's readers),
# each of its thread's streams S: W_S = the first kernel or copy on S after the function in the thread's order; does
# a driver-thread run end within [W_S.start - HI, W_S.start - LO]? The driver's thread is found as the replay finds
# it (import.c, driver_runs): the first thread without CUDA calls that the scheduling rows show after the first
# cudaLaunchHostFunc, within 0.2 ms.
import sys, os, collections, sqlite3
from hostfn_placement import read_programs, range_name, replay_ops, align
dump, rec = sys.argv[1], sys.argv[2]
LO, HI = float(os.environ.get('LO', 0.5)), float(os.environ.get('HI', 30))
db = sqlite3.connect(rec)
rt_tids = {r[0] for r in db.execute("select distinct globalTid from CUPTI_ACTIVITY_KIND_RUNTIME")}
first_fn = db.execute("select min(r.start) from CUPTI_ACTIVITY_KIND_RUNTIME r join StringIds s on s.id=r.nameId "
                      "where s.value like 'cudaLaunchHostFunc%'").fetchone()[0]
born = db.execute("select globalTid, min(start) b from SCHED_EVENTS group by globalTid having b >= ? order by b",
                  (first_fn,)).fetchall()
drv = [t for t, b in born if t not in rt_tids and b - first_fn < 200e3][0]
run_ends = [s for s, on in db.execute("select start, isSchedIn from SCHED_EVENTS where globalTid=? order by start",
                                      (drv,)) if not on]
stat = collections.Counter()
for k, prog in enumerate(read_programs(dump)):
    rng = range_name(k)
    aligned = align(prog, replay_ops(rec, rng))
    if aligned is None: continue
    P, R, smap = aligned
    r0 = db.execute("select start, end from NVTX_EVENTS where text = ?", (rng,)).fetchone()
    t0 = db.execute("select min(start) from CUPTI_ACTIVITY_KIND_RUNTIME where start >= ? and start <= ?", r0).fetchone()[0]
    for pt, ps in P.items():
        rs_ = R[pt]
        streams = {b[2] for b in rs_ if b[0] != 7}
        for j, (a, b) in enumerate(zip(ps, rs_)):
            if a[0] != 7: continue
            truth = smap.get(a[2], set())
            for S in streams:
                W = next((o for o in rs_[j + 1:] if o[2] == S and o[0] in (0, 6) and o[3] == o[3]), None)
                if W is None: continue
                ws = t0 + W[3] * 1e3
                hit = any(ws - HI * 1e3 <= e <= ws - LO * 1e3 for e in run_ends)
                stat[('true' if S in truth else 'other', hit)] += 1
t, o = stat[('true', True)], stat[('other', True)]
print('LO %.1f HI %.1f us: true streams with a run end just before their next work: %d of %d; other streams: %d of %d'
      % (LO, HI, t, t + stat[('true', False)], o, o + stat[('other', False)]))
