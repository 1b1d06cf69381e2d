# hostfn_placement.py PROGRAM_DUMP RECORDING...: for each of event-programs' 40 random programs (copies population,
# seeds from 20261121), the stream each host function was called into (event-programs' GRIDLAB_SCHED_DUMP of a run
# without nsys: the program, not the recording) against the stream the replay put it in (GRIDLAB_REPLAY_DUMP of the
# recording's range). The program's streams map to the trace's through the kernels, copies and waits, matched in
# each thread's order. BIN= the replay (default build/bin/replay). hostfn_runsign.py uses its readers.
import sys, subprocess, os, collections, tempfile
BIN = os.environ.get('BIN', 'build/bin/replay')
KEEP = {0, 2, 6, 7}  # kernels, waits, copies, host functions: in both the program and the trace, in order


def read_programs(dump):
    """Each program's ops as (kind, thread, stream), from the dump's first run of each."""
    progs, cur = [], None
    for line in open(dump):
        if line.startswith('# run 1:'):
            cur = []; progs.append(cur); continue
        if line.startswith('#'):
            cur = None; continue
        if cur is None or not line[0].isdigit(): continue
        f = line.split()
        cur.append((int(f[1]), int(f[2]), int(f[3])))
    return progs


def range_name(k):
    return 'random %d (copies, seed %d)' % (k, 20261121 + k)


def replay_ops(rec, rng):
    """The replay's ops of a range as (kind, thread, stream, recorded start us)."""
    fd, out = tempfile.mkstemp(suffix='.dump'); os.close(fd)
    subprocess.run([BIN, rec, '--range', rng, '--module-loading', 'eager'],
                   env=dict(os.environ, GRIDLAB_REPLAY_DUMP=out), capture_output=True)
    rep = [(int(f[1]), int(f[2]), int(f[3]), float(f[5])) for f in (l.split() for l in open(out))]
    os.remove(out)
    return rep


def align(prog, rep):
    """Each thread's kept ops in the program (P) and the replay (R), the replay's thread of each program thread
    (matched by the sequence of kinds) and the trace streams of each program stream; None where threads differ."""
    P = collections.defaultdict(list); R = collections.defaultdict(list)
    for o in prog:
        if o[0] in KEEP: P[o[1]].append(o)
    for o in rep:
        if o[0] in KEEP: R[o[1]].append(o)
    rmap = {}
    for pt, ps in P.items():
        sig = [o[0] for o in ps]
        for rt, rs_ in R.items():
            if rt not in rmap.values() and [o[0] for o in rs_] == sig: rmap[pt] = rt; break
    if len(rmap) != len(P): return None
    smap = {}
    for pt, ps in P.items():
        for a, b in zip(ps, R[rmap[pt]]):
            if a[0] != 7: smap.setdefault(a[2], set()).add(b[2])
    return P, {pt: R[rt] for pt, rt in rmap.items()}, smap


def main():
    dump, recs = sys.argv[1], sys.argv[2:]
    progs = read_programs(dump)
    tot = right = prev_right = among = 0
    rows = []
    for rec in recs:
        for k, prog in enumerate(progs):
            rng = range_name(k)
            aligned = align(prog, replay_ops(rec, rng))
            if aligned is None:
                rows.append('%s %s: threads do not align' % (os.path.basename(rec), rng)); continue
            P, R, smap = aligned
            calls = collections.defaultdict(list)  # each thread's calls into a stream, as the replay takes candidates
            for o in prog:
                if o[0] in (0, 1, 2, 6, 7): calls[o[1]].append(o)
            for pt, ps in P.items():
                fns = [i for i, o in enumerate(calls[pt]) if o[0] == 7]
                nth = 0
                for j, (a, b) in enumerate(zip(ps, R[pt])):
                    if a[0] != 7: continue
                    # the distinct streams of the thread's four latest calls before this function (records and
                    # waits count, functions not), from the program: whether the right one is among the candidates
                    at = fns[nth]; nth += 1
                    cand = []
                    for o in reversed(calls[pt][:at]):
                        if o[0] != 7 and o[2] >= 0 and o[2] not in cand: cand.append(o[2])
                        if len(cand) == 4: break
                    among += a[2] in cand
                    truth = smap.get(a[2], {None})
                    prev = next((ps[q][2] for q in range(j - 1, -1, -1) if ps[q][0] != 7), None)
                    tot += 1; ok = b[2] in truth; right += ok; prev_right += prev == a[2]
                    rows.append('%s random %d thread %d fn: true stream %s (trace %s), replay %d %s; previous call\'s '
                                'stream %s' % (os.path.basename(rec), k, pt, a[2], sorted(truth), b[2],
                                               'RIGHT' if ok else 'WRONG', 'same' if prev == a[2] else 'other'))
    print('\n'.join(rows))
    print('host functions: %d, the replay put %d in their stream; the previous call\'s stream was theirs for %d; theirs '
          'was among the thread\'s four latest streams for %d' % (tot, right, prev_right, among))


if __name__ == '__main__':
    main()
