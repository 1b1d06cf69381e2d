# range_calls.py PREFIX FILE...: each call in the first NVTX range named PREFIX..., us from the range's start, with
# its duration and the kernel (K), copy (C) or memset (M) it made: stream, recorded start and end
import sqlite3,sys
for f in sys.argv[2:]:
    db=sqlite3.connect(f)
    s=dict(db.execute("select id,value from StringIds"))
    t0,t1=db.execute("select start,end from NVTX_EVENTS where text like ? ",(sys.argv[1]+'%',)).fetchone()
    print(f, (t1-t0)/1e3)
    ops={}
    for tb,kind in [('CUPTI_ACTIVITY_KIND_KERNEL','K'),('CUPTI_ACTIVITY_KIND_MEMCPY','C'),('CUPTI_ACTIVITY_KIND_MEMSET','M')]:
        for st,en,cid,sid in db.execute(f"select start,end,correlationId,streamId from {tb} where start>=?",(t0,)):
            ops[cid]=(kind,(st-t0)/1e3,(en-t0)/1e3,sid)
    for st,en,nm,cid,tid in db.execute("select start,end,nameId,correlationId,globalTid from CUPTI_ACTIVITY_KIND_RUNTIME where start>=? and start<? order by start",(t0,t1)):
        n=s[nm]
        if 'Query' in n or 'GetName' in n or 'EventCreate' in n or 'Destroy' in n: continue
        o=ops.get(cid)
        print('  %9.1f %8.1f %-28s %s'%((st-t0)/1e3,(en-st)/1e3,n[:28], '' if not o else '%s s%d %9.1f-%9.1f'%(o[0],o[3],o[1],o[2])))
