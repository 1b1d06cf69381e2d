#!/bin/bash
# session 31 call 5: the sanitizers on experiments whose model runs the changed scheduler, then the GPU suite
cd "$(dirname "$0")/.."
make -j16 all >/dev/null 2>&1 || { echo build failed; exit 1; }
T0=$(date +%s)
for e in event-programs false-dependency hyperq omp-streams copy-overlap; do
  { timeout 90 make sanitize-$e; echo "rc=$?"; } > $OUT/sanitize-$e.txt 2>&1
done
grep -h "^sanitize " $OUT/sanitize-*.txt; echo "sanitizers $(( $(date +%s) - T0 ))s"
set -o pipefail
timeout 330 make test-gpu > $OUT/test-gpu.log 2>&1; echo "test-gpu rc=$? $(( $(date +%s) - T0 ))s"; tail -2 $OUT/test-gpu.log
