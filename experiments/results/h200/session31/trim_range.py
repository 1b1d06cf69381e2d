# trim.py IN OUT RANGE-PREFIX: keep the CUDA activity of one NVTX range (and 1 ms either side), drop CPU samples
import sqlite3, shutil, sys
src, dst, prefix = sys.argv[1:4]
shutil.copy(src, dst)
db = sqlite3.connect(dst)
t0, t1 = db.execute("select start, end from NVTX_EVENTS where text like ? order by start limit 1", (prefix + '%',)).fetchone()
lo, hi = t0 - 1000000, t1 + 1000000
for tb in ['CUPTI_ACTIVITY_KIND_RUNTIME', 'CUPTI_ACTIVITY_KIND_KERNEL', 'CUPTI_ACTIVITY_KIND_MEMCPY',
           'CUPTI_ACTIVITY_KIND_MEMSET', 'CUPTI_ACTIVITY_KIND_SYNCHRONIZATION']:
    db.execute(f'delete from {tb} where start < ? or start > ?', (lo, hi))
# an event record has no time of its own: keep those whose call is kept
db.execute('delete from CUPTI_ACTIVITY_KIND_CUDA_EVENT where correlationId not in '
           '(select correlationId from CUPTI_ACTIVITY_KIND_RUNTIME)')
for tb in ['SAMPLING_CALLCHAINS', 'COMPOSITE_EVENTS']:
    db.execute(f'delete from {tb}')
db.execute("delete from NVTX_EVENTS where end < ? or start > ?", (lo, hi))
db.commit(); db.execute('vacuum'); db.close()
