#!/bin/bash
# omp-streams' own GPU tests and its --quick run, then omp-streams --quick repeated (9 runs each now).
make -j16 all >/dev/null 2>&1 || { echo build failed; exit 1; }
( . tests/lib.sh; export TEST_TIMEOUT=300; tmp=$(mktemp -d)
  expect "omp-streams --quick exits 0" 0 "^verdict: PASS" "$BIN/omp-streams" --quick
  . src/omp/omp-streams.gpu.sh; finish ) > $OUT/omp-tests.log 2>&1
tail -3 $OUT/omp-tests.log; grep "^not ok" $OUT/omp-tests.log
D=/tmp/rep; mkdir -p $D; T0=$(date +%s)
for i in $(seq 1 ${N:-60}); do
  t=$(date +%s.%N); build/bin/omp-streams --quick > $D/om$i.out 2>&1; rc=$?
  echo "om $i rc=$rc $(awk "BEGIN{print $(date +%s.%N) - $t}")s $(grep '^verdict' $D/om$i.out)" >> $OUT/repeats9.txt
  [ $rc = 0 ] || cp $D/om$i.out $OUT/om-fail-$i.txt
  [ $(( $(date +%s) - T0 )) -gt ${BUDGET:-200} ] && break
done
grep -c "rc=0" $OUT/repeats9.txt; wc -l < $OUT/repeats9.txt; grep -v "rc=0" $OUT/repeats9.txt | head -5; tail -1 $OUT/repeats9.txt
