#!/bin/bash
# session 31 call 2: event-programs' 40 random programs under nsys with validate-replay's flags, the settings taking
# turns, rounds until $BUDGET s; exported, brought back as xz parts (judged here, on the CPU)
cd "$(dirname "$0")/.."
source .devtools/nsys-env.sh >/dev/null
make -j16 all >/dev/null 2>&1 || { echo build failed; exit 1; }
D=/tmp/rnd; mkdir -p $D; T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/random-rec.log
for r in 0 1 2 3 4 5; do
  for c in 1 2 4 8 16 32; do
    t=$(date +%s.%N)
    CUDA_DEVICE_MAX_CONNECTIONS=$c nsys profile -t cuda,nvtx --cuda-event-trace=true --cuda-graph-trace=node \
      --force-overwrite true -o $D/random-c$c-r$r build/bin/event-programs --population copies --programs 40 \
      --host-threads 8 --profile > $D/out-c$c-r$r.txt 2>&1
    printf "C=%-2s r%s rc=%s %6.1fs\n" $c $r $? $(awk "BEGIN{print $(date +%s.%N) - $t}") >> $OUT/random-rec.log
  done
  [ $(( $(date +%s) - T0 )) -gt ${BUDGET:-300} ] && break
done
t=$(date +%s)
ls $D/*.nsys-rep | xargs -P 12 -I{} sh -c 'nsys export --type sqlite --force-overwrite true -o $(dirname {})/$(basename {} .nsys-rep).sqlite {} >/dev/null 2>&1 && rm {}'
echo "exports $(( $(date +%s) - t ))s, $(ls $D/*.sqlite | wc -l) recordings" >> $OUT/random-rec.log
(cd $D && tar cf - *.sqlite out-c8-r0.txt | xz -T16 -6 | split -b 15M - $OUT/random-rec.tar.xz.part-)
ls -la $OUT; cat $OUT/random-rec.log
