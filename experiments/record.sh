#!/usr/bin/env bash
# record.sh - run, on a GPU machine, every configuration whose output a results
# table shows, and keep what it wrote under experiments/results/<gpu>/.
#
#   experiments/record.sh                 every command below, in order
#   experiments/record.sh --only a,b      only the commands labelled a and b
#   experiments/record.sh --list          print the commands; run nothing
#   experiments/record.sh --dir DIR       record into DIR instead of experiments/results/<gpu>/
#
# An experiment's command (kind exp or csv) gets --json DIR/<label>.json (and
# --csv DIR/<label>.csv for kind csv); its terminal output goes to DIR/<label>.txt.
# A tool's command runs as written. Each command prints one line with its exit
# code and time, and appends the same to DIR/record.log (date, label, exit,
# seconds, driver, command), which experiments/results-page.py reads.
# The binaries are ${BUILD:-build}/bin/<experiment>: run `make all` first.
# Exit: 0 all ok, 77 no suitable GPU (stops at the first run that says so),
# otherwise the worst exit code of the commands (each one still runs).
set -u
cd "$(dirname "$0")/.."

# label | kind | what it backs | command ($BIN, $BUILD, $DIR and $TMP are filled in when it runs)
COMMANDS='
nested-hello-blog-layout|exp|FINDINGS "nested-hello" (the blog layout)|$BIN/nested-hello --quiet --blocks 32 --threads 2 --size 64
nested-hello-1024x1024|exp|FINDINGS "nested-hello"|$BIN/nested-hello --quiet --blocks 1024 --threads 1024
nested-reduce|exp|FINDINGS "nested-reduce" (2^20, the K40c column)|$BIN/nested-reduce
nested-reduce-2p26|exp|FINDINGS "nested-reduce" (2^26)|$BIN/nested-reduce --n 67108864 --repeat 5
nested-reduce-2p28|exp|FINDINGS "nested-reduce" (2^28, flat against cub)|$BIN/nested-reduce --n 268435456 --variant flat,cub,nested-agg --repeat 20
nested-race-65536|exp|FINDINGS "nested-reduce" (the race)|$BIN/nested-race --n 65536 --race-delay-us 50
launch-host|exp|FINDINGS "launch-host and launch-device"|$BIN/launch-host
launch-device|exp|FINDINGS "launch-host and launch-device"|$BIN/launch-device
cdp-pending|exp|FINDINGS "cdp-pending, cdp-depth and cdp-pool-memory"|$BIN/cdp-pending
cdp-depth|exp|FINDINGS "cdp-pending, cdp-depth and cdp-pool-memory"|$BIN/cdp-depth
cdp-pool-memory|exp|FINDINGS "cdp-pending, cdp-depth and cdp-pool-memory"|$BIN/cdp-pool-memory
histogram-2p30|csv|FINDINGS "histogram"|$BIN/histogram --n 1073741824 --repeat 10 --variant global-atomic,block-partition,interleaved,privatized,aggregated,best,cub
scan|exp|FINDINGS "scan" (2^28)|$BIN/scan
scan-2p28p5|exp|FINDINGS "scan" (2^28+5)|$BIN/scan --n 268435461
scan-cdp|exp|FINDINGS "scan-cdp" (2^28)|$BIN/scan-cdp
dot-lock|exp|FINDINGS "dot-lock"|$BIN/dot-lock
lock-contention|exp|FINDINGS "lock-contention"|$BIN/lock-contention
warp-lock|exp|FINDINGS "warp-lock"|$BIN/warp-lock
hash-table|csv|FINDINGS "hash-table and hash-probing"|$BIN/hash-table
hash-probing|csv|FINDINGS "hash-table and hash-probing"|$BIN/hash-probing
false-dependency|exp|README "A sample run"; FINDINGS "false-dependency, hyperq, queue-map and queue-dispatch"|$BIN/false-dependency
connections-sweep|csv|FINDINGS "false-dependency, hyperq, queue-map and queue-dispatch" (make sweep-connections)|$BIN/false-dependency --connections 1,2,4,8,16,32 --repeat 5
hyperq-sweep|csv|FINDINGS "false-dependency, hyperq, queue-map and queue-dispatch"; README "The scheduling model" (make sweep-hyperq)|$BIN/hyperq --connections 1,2,4,8,16,32 --repeat 5
hyperq-plot|tool|FINDINGS "false-dependency, hyperq, queue-map and queue-dispatch" (the plot)|python3 experiments/plot-hyperq.py $DIR/hyperq-sweep.json --out $TMP && { ! [ -f $TMP/hyperq-sweep.png ] || cp $TMP/hyperq-sweep.png $TMP/hyperq-sweep.svg $DIR/; }
queue-map-c1-32|csv|FINDINGS "false-dependency, hyperq, queue-map and queue-dispatch" (the queue map); README "The scheduling model"|$BIN/queue-map --connections 1,2,4,8,16,32
queue-dispatch-c1-32|csv|FINDINGS "false-dependency, hyperq, queue-map and queue-dispatch" (the dispatch rules); README "The scheduling model"|$BIN/queue-dispatch --connections 1,2,4,8,16,32 --repeat 5
default-stream-c1-8-32|exp|FINDINGS "default-stream"|$BIN/default-stream --connections 1,8,32
default-stream-per-thread-c1-8-32|exp|FINDINGS "default-stream" (the per-thread build)|$BIN/default-stream-per-thread --connections 1,8,32
implicit-sync-c1-8-32|exp|FINDINGS "implicit-sync"|$BIN/implicit-sync --connections 1,8,32
implicit-sync-per-thread-c1-8-32|exp|FINDINGS "implicit-sync" (the per-thread build)|$BIN/implicit-sync-per-thread --connections 1,8,32
stream-events-c1-8|exp|FINDINGS "stream-events"|$BIN/stream-events --connections 1,8
event-programs-c1-8|exp|FINDINGS "event-programs"|$BIN/event-programs --connections 1,8
event-cost-c1-8|exp|FINDINGS "event-cost"|$BIN/event-cost --connections 1,8
event-timing-c1-8|exp|FINDINGS "event-timing"|$BIN/event-timing --connections 1,8
omp-streams|exp|FINDINGS "omp-streams"|$BIN/omp-streams
validate-model|tool|README and FINDINGS "The scheduling model" (make validate-model)|python3 experiments/validate-model.py --bin $BIN/false-dependency --events-bin $BIN/event-programs --out $DIR
claim-sweep|tool|README "Build and tests"; FINDINGS "The test suites" (make test-gpu-large; minutes)|python3 experiments/claim-sweep.py --bin-dir $BIN --sizes 8 > $DIR/claim-sweep.txt
sanitize-all|tool|README "Build and tests"; FINDINGS "The test suites" (make sanitize-all)|make -s sanitize-all BUILD=$BUILD > $DIR/sanitize-all.txt
'

BUILD=${BUILD:-build}
BIN=$BUILD/bin
DIR= LIST=0 ONLY=
while [ $# -gt 0 ]; do
    case $1 in
        --list) LIST=1 ;;
        --only) ONLY=${2:?--only needs a comma-separated list of labels}; shift ;;
        --dir) DIR=${2:?--dir needs a folder}; shift ;;
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
        *) echo "record.sh: unknown option '$1' (--list, --only a,b, --dir DIR)" >&2; exit 2 ;;
    esac
    shift
done
for label in ${ONLY//,/ }; do
    grep -q "^$label|" <<< "$COMMANDS" || { echo "record.sh: no command is labelled '$label' (--list shows the labels)" >&2; exit 2; }
done

# The GPU as nvidia-smi names it, in the folder name experiments/gpu_results.py gives it.
dev=${CUDA_VISIBLE_DEVICES:-0}
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i "${dev%%,*}" 2>/dev/null | head -n 1)
driver=${gpu##*, }
if [ -z "$DIR" ]; then
    if [ -n "$gpu" ]; then
        DIR=experiments/results/$(python3 -c 'import sys; sys.path.insert(0, "experiments")
from gpu_results import gpu_folder; print(gpu_folder(sys.argv[1]))' "${gpu%, *}")
    else
        DIR='experiments/results/<gpu>'
    fi
fi

# One command with its placeholders filled in.
expand() { local c=${1//\$BIN/$BIN}; c=${c//\$BUILD/$BUILD}; c=${c//\$DIR/$DIR}; printf '%s' "${c//\$TMP/$TMP}"; }
TMP='$TMP'
if [ $LIST = 1 ]; then
    echo "# label | kind | backs | command  (exp: + --json $DIR/<label>.json, output in <label>.txt; csv: + --csv <label>.csv)"
    while IFS='|' read -r label kind backs cmd; do
        [ -n "$label" ] && printf '%s | %s | %s | %s\n' "$label" "$kind" "$backs" "$(expand "$cmd")"
    done <<< "$COMMANDS"
    exit 0
fi

if [ -z "$gpu" ] && [ "$DIR" = 'experiments/results/<gpu>' ]; then
    echo "record.sh: nvidia-smi finds no GPU, so there is no folder to name (--dir DIR records anyway)" >&2
    exit 77
fi
[ -d "$BIN" ] || { echo "record.sh: $BIN is missing: run make all (BUILD=$BUILD) first" >&2; exit 2; }
mkdir -p "$DIR" || exit 2
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
worst=0 ran=0
while IFS='|' read -r label kind backs cmd; do
    [ -n "$label" ] || continue
    case ",$ONLY," in ",,"|*",$label,"*) ;; *) continue ;; esac
    cmd=$(expand "$cmd")
    case $kind in
        exp) cmd="$cmd --json $DIR/$label.json" ;;
        csv) cmd="$cmd --json $DIR/$label.json --csv $DIR/$label.csv" ;;
    esac
    out=$DIR/$label.txt
    [ "$kind" = tool ] && out=$TMP/$label.log
    start=$(date +%s)
    bash -c "$cmd" > "$out" 2>&1
    rc=$? secs=$(( $(date +%s) - start )) ran=$((ran + 1))
    printf 'record %-34s exit %-3s %5s s  %s\n' "$label" "$rc" "$secs" "$cmd"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" "$label" "$rc" "$secs" "$driver" "$cmd" >> "$DIR/record.log"
    if [ $rc -ne 0 ]; then tail -n 5 "$out" | sed 's/^/    /'; fi
    if [ $rc -eq 77 ]; then echo "record.sh: no suitable GPU; stopped at $label" >&2; exit 77; fi
    [ $rc -gt $worst ] && worst=$rc
done <<< "$COMMANDS"
echo "recorded into $DIR ($ran commands); the page: python3 experiments/results-page.py"
exit $worst
