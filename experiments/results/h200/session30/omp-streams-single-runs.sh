#!/bin/bash
# One run per process of omp-streams' racing rows; keep each run's trace, JSON and verdict (all, small).
make -j16 all >/dev/null 2>&1 || { echo build failed; exit 1; }
D=/tmp/racing; mkdir -p $D; T0=$(date +%s)
for i in $(seq 1 ${N:-60}); do
  for m in omp per-thread; do
    s=$D/$m-$i
    build/bin/omp-streams --quick --repeat 1 --mode $m --threads 16 --kernel-us 500 --connections 8 --json $s.json --trace $s.trace.json > $s.out 2>&1; rc=$?
    echo "$m $i rc=$rc $(grep 'makespan within' $s.out | cut -c1-330)" >> $D/summary.txt
  done
  [ $(( $(date +%s) - T0 )) -gt ${BUDGET:-200} ] && break
done
cd $D && tar cJf $OUT/racing.tar.xz * && grep -c "rc=0" summary.txt; grep -v "rc=0" summary.txt | cut -c1-200; wc -l summary.txt
