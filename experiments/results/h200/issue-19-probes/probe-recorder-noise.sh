#!/bin/bash
# Does the recorder itself make the host-bound samples' spans noisy? Record each sample REPS times under
# variant A (validate-replay's flags) and B (A plus --sample=none --cpuctxsw=none), the variants taking turns,
# exports only after all recordings; print span, GPU busy time and host API time per recording.
source .devtools/nsys-env.sh >/dev/null
mkdir -p /tmp/swb && tar xJf .probe/carry/bin.tar.xz -C /tmp/swb; B=/tmp/swb/bin; cp .probe2/simpleCallback $B/
D=/tmp/nz; mkdir -p $D; T0=$(date +%s)
for r in $(seq 0 $((${REPS:-5}-1))); do
 for s in ${SAMPLES}; do
  for v in A B; do
   extra=""; [ $v = B ] && extra="--sample=none --cpuctxsw=none"
   stem=$D/$s-$v-r$r
   ( cd /tmp && CUDA_DEVICE_MAX_CONNECTIONS=8 timeout -k 5 60 nsys profile -t cuda,nvtx --cuda-event-trace=true \
      --cuda-graph-trace=node $extra --force-overwrite true -o $stem $B/$s > $stem.out 2>&1 )
   [ $(( $(date +%s) - T0 )) -gt ${BUDGET:-400} ] && { echo "budget reached at $s r$r" >&2; break 3; }
  done
 done
done
ls $D/*.nsys-rep | xargs -P 16 -I{} sh -c 'f={}; nsys export --type sqlite --force-overwrite true -o ${f%.nsys-rep}.sqlite $f >/dev/null 2>&1'
python3 - $D <<'P' | tee $OUT/noise.txt
import sqlite3,sys,glob,os,re,statistics as st,collections
res=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1]+'/*.sqlite')):
    s,v,r=re.match(r'(.*)-([AB])-r(\d+)\.sqlite',os.path.basename(f)).groups()
    db=sqlite3.connect(f); lo=[];hi=[];busy=0
    for t in ('CUPTI_ACTIVITY_KIND_KERNEL','CUPTI_ACTIVITY_KIND_MEMCPY','CUPTI_ACTIVITY_KIND_MEMSET'):
        try: a,b,c=db.execute(f'select min(start),max(end),sum(end-start) from {t}').fetchone()
        except Exception: continue
        if a is not None: lo.append(a);hi.append(b);busy+=c
    api=db.execute('select count(*),sum(end-start) from CUPTI_ACTIVITY_KIND_RUNTIME').fetchone()
    res[(s,v)].append(((max(hi)-min(lo))/1e6,busy/1e6,api[0],(api[1] or 0)/1e6))
print("%-28s v  n  span ms: min med max  spread%%  | busy med | api n, api ms med"%"sample")
for (s,v),L in sorted(res.items()):
    sp=[x[0] for x in L]; m=st.median(sp)
    print("%-28s %s %2d  %8.3f %8.3f %8.3f %6.1f | %8.3f | %6d %8.3f  spans %s"%(s,v,len(L),min(sp),m,max(sp),100*(max(sp)-min(sp))/m,
        st.median(x[1] for x in L),L[0][2],st.median(x[3] for x in L)," ".join("%.2f"%x for x in sp)))
P
