# The attach, launch and stream-sync calls of a recording in a window (us from its first kernel), with the kernels
# they made and every kernel start in it. Usage: python3 um-calls.py REC.sqlite FROM_US TO_US
import sqlite3, sys
db=sqlite3.connect(sys.argv[1]); lo=float(sys.argv[2]); hi=float(sys.argv[3])
names=dict(db.execute("select id,value from StringIds"))
t0=db.execute("select min(start) from CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
kern={c:(s,e,st) for s,e,st,c in db.execute("select start,end,streamId,correlationId from CUPTI_ACTIVITY_KIND_KERNEL")}
tids={}
ev=[]
for s,e,tid,cid,nid in db.execute("select start,end,globalTid,correlationId,nameId from CUPTI_ACTIVITY_KIND_RUNTIME order by start"):
    tids.setdefault(tid,len(tids))
    n=names[nid].split('_v')[0]
    if n not in ('cudaStreamAttachMemAsync','cudaLaunchKernel','cudaStreamSynchronize'): continue
    if not (lo<= (s-t0)/1e3 <=hi): continue
    k=kern.get(cid)
    ev.append(((s-t0)/1e3,'th%d call %9.1f..%9.1f %-26s %s'%(tids[tid],(s-t0)/1e3,(e-t0)/1e3,n,('-> K s%d %9.1f..%9.1f'%(k[2],(k[0]-t0)/1e3,(k[1]-t0)/1e3)) if k else '')))
for k in kern.values():
    if lo<=(k[0]-t0)/1e3<=hi: ev.append(((k[0]-t0)/1e3,'                                   GPU K s%d start %9.1f end %9.1f'%(k[2],(k[0]-t0)/1e3,(k[1]-t0)/1e3)))
for _,l in sorted(ev): print(l)
