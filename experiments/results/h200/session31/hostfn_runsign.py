# hostfn_runsign.py PROGRAM_DUMP RECORDING (LO=, HI= us): how often a host function's own stream, and its thread's other streams,
# show a run of the driver's host-function thread ending just before their next kernel or copy (session 31, section 4).
# For each host function (truth from the program dump), each of its thread's streams S: W_S = the first kernel/copy
# on S after the function in the thread's order; does a driver-thread run end within [W_S.start - HI, W_S.start - LO]?
import sys, subprocess, os, collections, sqlite3, tempfile
dump, rec = sys.argv[1], sys.argv[2]
LO, HI = float(os.environ.get('LO', 0.5)), float(os.environ.get('HI', 30))
BIN = os.environ.get('BIN', 'build/bin/replay')
progs = []; cur = None
for line in open(dump):
    if line.startswith('# run 1:'): cur = []; progs.append(cur); continue
    if line.startswith('#'): cur = None; continue
    if cur is None or not line[0].isdigit(): continue
    f = line.split(); cur.append((int(f[1]), int(f[2]), int(f[3])))
db = sqlite3.connect(rec)
names = dict(db.execute("select id,value from StringIds"))
pid_rows = db.execute("select distinct globalTid/16777216 from CUPTI_ACTIVITY_KIND_RUNTIME").fetchall()
rt_tids = {r[0] for r in db.execute("select distinct globalTid from CUPTI_ACTIVITY_KIND_RUNTIME")}
first_fn = db.execute("select min(r.start) from CUPTI_ACTIVITY_KIND_RUNTIME r join StringIds s on s.id=r.nameId where s.value like 'cudaLaunchHostFunc%'").fetchone()[0]
cands = db.execute("select globalTid, min(start) b from SCHED_EVENTS group by globalTid having b >= ? order by b", (first_fn,)).fetchall()
drv = [t for t, b in cands if t not in rt_tids and b - first_fn < 200e3][0]
ev = db.execute("select start, isSchedIn from SCHED_EVENTS where globalTid=? order by start", (drv,)).fetchall()
run_ends = [s for s, on in ev if not on]
KEEP = {0, 2, 6, 7}
stat = collections.Counter()
for k, prog in enumerate(progs):
    rng = 'random %d (copies, seed %d)' % (k, 20261121 + k)
    fd, out = tempfile.mkstemp(); os.close(fd)
    subprocess.run([BIN, rec, '--range', rng, '--module-loading', 'eager'], env=dict(os.environ, GRIDLAB_REPLAY_DUMP=out), capture_output=True)
    rep = []
    for l in open(out):
        f = l.split(); rep.append((int(f[1]), int(f[2]), int(f[3]), float(f[5])))
    os.remove(out)
    r0 = db.execute("select start,end from NVTX_EVENTS where text = ?", (rng,)).fetchone()
    t0 = db.execute("select min(start) from CUPTI_ACTIVITY_KIND_RUNTIME where start >= ? and start <= ?", r0).fetchone()[0]
    P = collections.defaultdict(list); R = collections.defaultdict(list)
    for o in prog:
        if o[0] in KEEP: P[o[1]].append(o)
    for o in rep:
        if o[0] in KEEP: R[o[1]].append(o)
    rmap = {}
    for pt, ps in P.items():
        for rt, rs_ in R.items():
            if rt not in rmap.values() and [o[0] for o in rs_] == [o[0] for o in ps]: rmap[pt] = rt; break
    if len(rmap) != len(P): continue
    smap = {}
    for pt, ps in P.items():
        for a, b in zip(ps, R[rmap[pt]]):
            if a[0] != 7: smap[a[2]] = b[2]
    for pt, ps in P.items():
        rs_ = R[rmap[pt]]
        streams = {b[2] for b in rs_ if b[0] != 7}
        for j, (a, b) in enumerate(zip(ps, rs_)):
            if a[0] != 7: continue
            truth = smap.get(a[2])
            for S in streams:
                W = next((o for o in rs_[j + 1:] if o[2] == S and o[0] in (0, 6) and o[3] == o[3]), None)
                if W is None: continue
                ws = t0 + W[3] * 1e3
                hit = any(ws - HI * 1e3 <= e <= ws - LO * 1e3 for e in run_ends)
                stat[('true' if S == truth else 'other', hit)] += 1
print('LO %.1f HI %.1f us:' % (LO, HI), dict(stat))
t, o = stat[('true', True)], stat[('other', True)]
print('true streams with a run end just before their next work: %d of %d; other streams: %d of %d' % (t, t + stat[('true', False)], o, o + stat[('other', False)]))
