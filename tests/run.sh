#!/usr/bin/env bash
# run.sh - run gridlab's test suites and total them.
#   tests/run.sh unit | cli | gpu | all
# Each suite prints one line per case and its own count ("K skipped" when it
# skipped any, then "N passed, M failed"); the last two lines here are the
# totals, "K skipped" and "N passed, M failed" (CI reads the last). "all" runs
# the GPU suite only when a GPU is present, and otherwise says that it skipped it.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
total_pass=0
total_fail=0
total_skipped=0

# Run one suite, show its lines, and add its count (a suite that dies without
# a count, or exits non-zero with none failed, counts as one failure).
run_suite() {
    local name=$1 log rc line p f s
    shift
    log=$(mktemp)
    timeout 1800 "$@" >"$log" 2>&1
    rc=$?
    # The suite's own count lines are indented and named, so that only the totals are bare.
    awk -v name="$name" '/^[0-9]+ passed, [0-9]+ failed$|^[0-9]+ skipped$/ { print "  " name ": " $0; next } { print }' "$log"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    s=$(grep -E '^[0-9]+ skipped$' "$log" | tail -n 1)
    s=${s%% *}
    rm -f "$log"
    total_skipped=$((total_skipped + ${s:-0}))
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
# test_no_gpu is CUDA-linked but needs no GPU: it runs with the command-line
# tests on every machine, and not again in the GPU suite.
cli() {
    echo "== command-line tests"
    run_suite cli bash tests/cli.sh
    echo "== no-GPU words: test_no_gpu"
    run_suite cli/test_no_gpu "$BUILD/tests/gpu/test_no_gpu"
}
gpu() {
    local t
    for t in "$BUILD"/tests/gpu/test_*; do
        [ -x "$t" ] && [ "$(basename "$t")" != test_no_gpu ] || continue
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
echo "$total_skipped skipped"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
