# The tail rule of the queues (gl_sched.h "Queues") re-simulated over omp-streams traces (--trace of one run):
# 1-block kernels, the model's dispatch gap and queue entry; submissions at each launch call's start or return,
# with one round-robin cursor (tail) or one per host thread (thread). Usage: python3 omp_racing_resim.py "DIR/omp-*.trace.json"
import json, sys, glob, heapq, statistics as st
from collections import defaultdict
def load(path):
    d=json.load(open(path)); ev=d['traceEvents']
    names={}
    for e in ev:
        if e.get('ph')=='M' and e['name']=='thread_name': names[(e['pid'],e['tid'])]=e['args']['name']
    calls=defaultdict(list); kern=defaultdict(list)
    for e in ev:
        if e.get('ph')!='X' or e['pid']!=1: continue
        n=names[(1,e['tid'])]
        if n.startswith('host thread'): calls[int(n.split()[-1])].append((e['ts'],e['ts']+e['dur']))
        else: kern[int(n.split()[-1])].append((e['ts'],e['ts']+e['dur']))
    for k in calls: calls[k].sort()
    for k in kern: kern[k].sort()
    mk=max(b for v in kern.values() for a,b in v)-min(a for v in kern.values() for a,b in v)
    return calls,kern,mk
def sim(calls, C, rule, T=500.2, disp=1.5, entry=0.4, where=1.0):
    # ops: (submit time, thread, j); stream == thread
    ops=sorted((a+where*(b-a),t,j) for t,v in calls.items() for j,(a,b) in enumerate(v))
    q=[[] for _ in range(C)]; head=[0]*C; unfinished=[0]*C
    cursor={'g':C-1}; last_op_q={}; start={}; end={}
    # event loop: submissions at times; kernel ends; we process in time order
    # a head can go at time max(arrive, prev end + disp, queue free)
    qfree=[0.0]*C
    pending=list(ops); t_now=0
    ends=[]  # heap of (end, q)
    def try_dispatch(now):
        moved=True
        while moved:
            moved=False
            for c in range(C):
                if head[c]<len(q[c]):
                    op=q[c][head[c]]; (ts,t,j)=op
                    dep = end.get((t,j-1),0.0) if j>0 else 0.0
                    if j>0 and (t,j-1) not in end: continue
                    if j>0 and end[(t,j-1)]>now: continue
                    go=max(ts, qfree[c], (dep+disp) if j>0 else ts+disp)
                    if go>now+1e-9: 
                        heapq.heappush(ends,(go,-1,c)); continue
                    start[(t,j)]=go; end[(t,j)]=go+T; head[c]+=1; qfree[c]=go+entry
                    heapq.heappush(ends,(go+T,c,(t,j))); moved=True
    i=0
    while i<len(pending) or ends:
        nt = pending[i][0] if i<len(pending) else 1e18
        if ends and ends[0][0]<=nt:
            tt,c,x=heapq.heappop(ends)
            if c>=0: unfinished[c]-=1
            try_dispatch(tt); continue
        ts,t,j=pending[i]; i+=1
        key='g' if rule=='tail' else t
        if key not in cursor: cursor[key]=C-1
        pick=-1
        if (t,j-1) in last_op_q:
            c=last_op_q[(t,j-1)]
            if q[c] and q[c][-1][1]==t: pick=c
        if pick<0:
            for k in range(1,C+1):
                c=(cursor[key]+k)%C
                if unfinished[c]==0: pick=c; break
        if pick<0: pick=(cursor[key]+1)%C
        cursor[key]=pick
        q[pick].append((ts,t,j)); unfinished[pick]+=1; last_op_q[(t,j)]=pick
        try_dispatch(ts)
    s0=min(start.values()); return max(end.values())-s0, start
if __name__=='__main__':
    rows=[]
    for f in sorted(glob.glob(sys.argv[1])):
        calls,kern,mk=load(f)
        r=[f.split('/')[-1].replace('.trace.json',''), mk/1e3]
        for rule in ('tail','thread'):
            for w in (0.0,1.0):
                r.append(sim(calls,8,rule,where=w)[0]/1e3)
        rows.append(r)
    print('run measured  tail@call tail@ret thread@call thread@ret')
    errs=defaultdict(list)
    for r in rows:
        print('%-16s %6.3f  %6.3f %6.3f  %6.3f %6.3f'%tuple(r))
        for k,v in zip(('tc','tr','hc','hr'),r[2:]): errs[k].append(abs(v/r[1]-1)*100)
    for k,v in errs.items(): print(k,'median |err| %.1f%%  p90 %.1f%%  max %.1f%%'%(st.median(v),sorted(v)[int(.9*len(v))],max(v)))
