#!/bin/bash
# session 31 call 1: sanitizers for omp-streams and copy-overlap, the GPU suite, then random 20 alone under nsys.
cd "$(dirname "$0")/.."
T0=$(date +%s)
make -j16 all >/dev/null 2>&1 || { echo build failed; exit 1; }
H=$(git rev-parse --short HEAD 2>/dev/null || echo tree)
{ make sanitize-omp-streams; echo "rc=$?"; } > $OUT/sanitize-omp-streams.txt 2>&1
{ make sanitize-copy-overlap; echo "rc=$?"; } > $OUT/sanitize-copy-overlap.txt 2>&1
echo "sanitizers done $(( $(date +%s) - T0 ))s"
set -o pipefail
timeout 330 make test-gpu > $OUT/test-gpu.log 2>&1; echo "test-gpu rc=$? $(( $(date +%s) - T0 ))s"
source .devtools/nsys-env.sh >/dev/null
D=/tmp/r20; mkdir -p $D
for r in 0 1 2 3 4 5 6 7; do for c in 2 8 32; do
  [ $(( $(date +%s) - T0 )) -gt 540 ] && break 2
  CUDA_DEVICE_MAX_CONNECTIONS=$c nsys profile -t cuda,nvtx --cuda-event-trace=true --cuda-graph-trace=node \
    --force-overwrite true -o $D/r20-c$c-r$r build/bin/event-programs --population copies --programs 1 --seed 20261141 \
    --host-threads 8 --profile > $D/out-c$c-r$r.txt 2>&1
  echo "C=$c r$r rc=$? $(grep -o 'measured [0-9.]* ms' $D/out-c$c-r$r.txt | head -1)" >> $OUT/r20.log
done; done
ls $D/*.nsys-rep | xargs -P 12 -I{} sh -c 'nsys export --type sqlite --force-overwrite true -o $(dirname {})/$(basename {} .nsys-rep).sqlite {} >/dev/null 2>&1 && rm {}'
(cd $D && tar cJf $OUT/r20.tar.xz *.sqlite out-*.txt); ls -la $OUT
grep -h "^sanitize " $OUT/sanitize-*.txt; tail -2 $OUT/test-gpu.log; cat $OUT/r20.log | tail -30
