#!/bin/bash
# Repeat the two commands that failed in test-gpu at fc9a4ad; keep the failing runs' JSON, trace and output.
make -j16 all >/dev/null 2>&1 || { echo build failed; exit 1; }
D=/tmp/flaky2; mkdir -p $D; T0=$(date +%s); N=${N:-80}
for i in $(seq 1 $N); do
  build/bin/false-dependency --quick --profile --json $D/fd$i.json --trace $D/fd$i.trace.json > $D/fd$i.out 2>&1; rc=$?
  echo "fd $i rc=$rc $(grep '^verdict' $D/fd$i.out)" >> $D/summary.txt
  [ $rc = 0 ] && rm -f $D/fd$i.*
  build/bin/omp-streams --quick --json $D/om$i.json > $D/om$i.out 2>&1; rc=$?
  echo "om $i rc=$rc $(grep '^verdict' $D/om$i.out)" >> $D/summary.txt
  [ $rc = 0 ] && rm -f $D/om$i.*
  [ $(( $(date +%s) - T0 )) -gt ${BUDGET:-300} ] && break
done
cd $D && tar cJf $OUT/flaky2.tar.xz * && grep -c "rc=0" summary.txt; grep -v "rc=0" summary.txt; wc -l summary.txt
