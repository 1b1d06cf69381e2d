#!/bin/bash
# make test-gpu at this tree, then omp-streams --quick (9 runs now) and false-dependency --quick --profile repeated.
(time (make -j16 all >/dev/null 2>&1 && make test-gpu)) > $OUT/test-gpu.log 2>&1
grep -E "^not ok|passed, .* failed" $OUT/test-gpu.log | tail -6
D=/tmp/rep; mkdir -p $D; T0=$(date +%s)
for i in $(seq 1 ${N:-40}); do
  build/bin/omp-streams --quick > $D/om$i.out 2>&1; echo "om $i rc=$? $(grep '^verdict' $D/om$i.out)" >> $OUT/repeats.txt
  build/bin/false-dependency --quick --profile > $D/fd$i.out 2>&1; echo "fd $i rc=$? $(grep '^verdict' $D/fd$i.out)" >> $OUT/repeats.txt
  [ $(( $(date +%s) - T0 )) -gt ${BUDGET:-150} ] && break
done
grep -c "^om .*rc=0" $OUT/repeats.txt; grep -c "^om" $OUT/repeats.txt; grep -c "^fd .*rc=0" $OUT/repeats.txt; grep -c "^fd" $OUT/repeats.txt
grep -v "rc=0" $OUT/repeats.txt | head
