# For each kernel of a recording (nsys export): its call's return, its start, and the latest end of a kernel that an
# attach (cudaStreamAttachMemAsync, its stream the thread's next kernel's) called before the kernel's call returned
# was behind: a kernel held by the one queue at C=1 starts no earlier. Usage: python3 um-attach-bound.py REC.sqlite
import sqlite3, sys
db=sqlite3.connect(sys.argv[1])
names=dict(db.execute("select id,value from StringIds"))
calls=db.execute("select start,end,globalTid,correlationId,nameId from CUPTI_ACTIVITY_KIND_RUNTIME order by start").fetchall()
kern={r[3]:r for r in db.execute("select start,end,streamId,correlationId from CUPTI_ACTIVITY_KIND_KERNEL")}
# per thread: sequence of calls
from collections import defaultdict
byth=defaultdict(list)
for c in calls: byth[c[2]].append(c)
att=[]  # (call start, call end, thread, inferred stream)
for th,cs in byth.items():
    for i,c in enumerate(cs):
        if names[c[4]].startswith('cudaStreamAttachMemAsync'):
            s=None
            for d in cs[i+1:]:
                if d[3] in kern: s=kern[d[3]][2]; break
                if names[d[4]].startswith('cudaStreamSynchronize'): s='sync'; break
            att.append((c[0],c[1],th,s))
K=sorted(kern.values())
t0=min(k[0] for k in K)
print('attaches',len(att),'kernels',len(K))
# kernel calls: correlation -> call
callof={c[3]:c for c in calls}
n=0
for k in K:
    c=callof[k[3]]
    # attaches returned before this kernel's call returned, on another stream, whose stream had a kernel running past c.end
    held=[]
    for a in att:
        if a[3] in (None,'sync') or a[3]==k[2] or a[1]>c[1]: continue
        prev=[x for x in K if x[2]==a[3] and callof[x[3]][1]<a[0]]
        if not prev: continue
        p=max(prev,key=lambda x:x[0])
        if p[1]>c[1]: held.append(p[1])
    bound=max(held) if held else None
    print('k s%-3d call ret %9.1f start %9.1f  wait %8.1f   attach-bound %s'%(k[2],(c[1]-t0)/1e3,(k[0]-t0)/1e3,(k[0]-c[1])/1e3, '%9.1f ok=%s'%((bound-t0)/1e3, k[0]>=bound) if bound else '-'))
