#!/usr/bin/env bash
# gpu.sh - the GPU suite: every experiment in --quick mode exits 0, plus the
# cases only a GPU can show (device-side launch errors, output files, C=1).
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
export TEST_TIMEOUT=300
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

list=$(experiments)
[ -n "$list" ] || { not_ok "experiment binaries exist in $BIN (run make all first)"; finish; exit 1; }
for e in $list; do
    expect "$e --quick exits 0" 0 "^verdict: PASS" "$BIN/$e" --quick
done

if [ -x "$BIN/false-dependency" ]; then
    b=$BIN/false-dependency
    expect "false-dependency --quick --connections 1: one queue, the staircase model" 0 \
        "CUDA_DEVICE_MAX_CONNECTIONS 1 \(CUDA_DEVICE_MAX_CONNECTIONS\)" "$b" --quick --connections 1
    expect "false-dependency reads CUDA_DEVICE_MAX_CONNECTIONS from the environment" 0 \
        "CUDA_DEVICE_MAX_CONNECTIONS 2 \(CUDA_DEVICE_MAX_CONNECTIONS\)" env CUDA_DEVICE_MAX_CONNECTIONS=2 "$b" --quick --order depth
    expect "false-dependency writes --json, --csv, --trace and draws --timeline" 0 "^timeline: order=depth C=2" \
        "$b" --quick --order depth --connections 2 --json "$tmp/fd.json" --csv "$tmp/fd.csv" --trace "$tmp/fd.trace.json" --timeline
    check "false-dependency JSON: span-cost and depth rows, every claim PASS" \
        python3 tests/validate.py report "$tmp/fd.json" --rows 2 --verdict PASS --claims-verdict PASS
    check "false-dependency CSV: two rows with statistics and verdicts" \
        python3 tests/validate.py csv "$tmp/fd.csv" --rows 2 --columns variant,connections,makespan_median_ms,verdict
    check "false-dependency trace: 12 kernels on 4 named streams, SM of every block" \
        python3 tests/validate.py trace "$tmp/fd.trace.json" --events 12 --runs 1 \
        --tracks "stream 0,stream 1,stream 2,stream 3" --block-sms
    expect "false-dependency --device 99 exits 77" 77 "no CUDA device: --device 99 requested" "$b" --quick --device 99
fi

if [ -x "$BIN/nested-hello" ]; then
    b=$BIN/nested-hello
    for mode in stream fire-and-forget tail; do
        expect "nested-hello --quick --launch $mode" 0 "^CLAIM the join probe .*: PASS" "$b" --quick --launch $mode
    done
    expect "nested-hello prints the textbook's hello lines" 0 "^depth 3 block 0 thread 0: hello" "$b" --quick --launch tail
    expect "nested-hello, the blog's layout (32 blocks x 2 threads, size 64)" 0 "^verdict: PASS" \
        "$b" --quick --quiet --blocks 32 --threads 2 --size 64
    expect "nested-hello, a 1024-thread tree, quiet" 0 "^verdict: PASS" "$b" --quick --quiet --blocks 64 --threads 1024
    expect "nested-hello: a failed device-side launch reaches the host as exit 3" 3 \
        "device-side launch failed: cudaErrorInvalidConfiguration" "$b" --quick --inject-launch-error --launch fire-and-forget
    expect "nested-hello --json and --trace" 0 "^trace: " "$b" --quick --quiet --json "$tmp/nh.json" --trace "$tmp/nh.trace.json"
    check "nested-hello JSON: one row per launch mode, every claim PASS" \
        python3 tests/validate.py report "$tmp/nh.json" --rows 3 --verdict PASS --claims-verdict PASS
    check "nested-hello trace: 8 grids per mode, one track per depth" \
        python3 tests/validate.py trace "$tmp/nh.trace.json" --events 24 --runs 3 --tracks "depth 0,depth 1,depth 2,depth 3"
fi
finish
