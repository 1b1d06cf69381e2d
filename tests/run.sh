#!/usr/bin/env bash
# run.sh - run gridlab's test suites and total them.
#   tests/run.sh unit | cli | gpu | all
# Each suite prints one line per case and its own count; the last line here is
# the total, "N passed, M failed". "all" runs the GPU suite only when a GPU is
# present, and otherwise says that it skipped it.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
total_pass=0
total_fail=0

# Run one suite, show its lines, and add its count (a suite that dies without
# a count, or exits non-zero with none failed, counts as one failure).
run_suite() {
    local name=$1 log rc line p f
    shift
    log=$(mktemp)
    timeout 1800 "$@" >"$log" 2>&1
    rc=$?
    # The suite's own count line is indented and named, so that only the total is bare.
    awk -v name="$name" '/^[0-9]+ passed, [0-9]+ failed$/ { print "  " name ": " $0; next } { print }' "$log"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    rm -f "$log"
    if [ -z "$line" ]; then
        echo "not ok - $name stopped without a count (exit $rc)"
        total_fail=$((total_fail + 1))
        return
    fi
    p=${line%% passed*}
    f=${line#*, }
    f=${f%% failed*}
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "not ok - $name exited $rc"
        total_fail=$((total_fail + 1))
    fi
}

have_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; }

unit() {
    local t found=0
    for t in "$BUILD"/tests/test_*; do
        [ -f "$t" ] && [ -x "$t" ] || continue
        found=1
        echo "== unit: $(basename "$t")"
        run_suite "unit/$(basename "$t")" "$t"
    done
    [ $found -eq 1 ] || { echo "not ok - no unit tests in $BUILD/tests (run make all)"; total_fail=$((total_fail + 1)); }
}
cli() { echo "== command-line tests"; run_suite cli bash tests/cli.sh; }
gpu() {
    local t
    for t in "$BUILD"/tests/gpu/test_*; do
        [ -x "$t" ] || continue
        echo "== GPU core: $(basename "$t")"
        run_suite "gpu/$(basename "$t")" "$t"
    done
    echo "== GPU suite"
    run_suite gpu bash tests/gpu.sh
}

mode=${1:-all}
case $mode in
unit) unit ;;
cli) cli ;;
gpu)
    if ! have_gpu; then
        echo "GPU suite skipped: no CUDA device (nvidia-smi lists no GPU)"
        exit 77
    fi
    gpu
    ;;
all)
    unit
    cli
    if have_gpu; then gpu; else echo "GPU suite skipped: no CUDA device"; fi
    ;;
*)
    echo "usage: tests/run.sh unit|cli|gpu|all" >&2
    exit 2
    ;;
esac
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
