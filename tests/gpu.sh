#!/usr/bin/env bash
# gpu.sh - the GPU suite: every experiment in --quick mode exits 0, plus the
# cases only a GPU can show (device-side launch errors, output files, C=1).
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
export TEST_TIMEOUT=${TEST_TIMEOUT:-300}
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
    expect "false-dependency writes --json, --csv, --trace and draws --timeline" 0 "^timeline: makespan depth C=2" \
        "$b" --quick --order depth --connections 2 --json "$tmp/fd.json" --csv "$tmp/fd.csv" --trace "$tmp/fd.trace.json" --timeline
    check "false-dependency JSON: span-cost and depth rows, every claim PASS" \
        python3 tests/validate.py report "$tmp/fd.json" --rows 2 --verdict PASS --claims-verdict PASS
    check "false-dependency CSV: two rows with statistics and verdicts" \
        python3 tests/validate.py csv "$tmp/fd.csv" --rows 2 --columns variant,connections,makespan_median_ms,verdict
    check "false-dependency trace: 12 kernels measured and 12 simulated on 4 named streams, SM of every measured block" \
        python3 tests/validate.py trace "$tmp/fd.trace.json" --events 24 --runs 2 \
        --tracks "stream 0,stream 1,stream 2,stream 3" --block-sms
    expect "false-dependency --device 99 exits 77" 77 "no suitable GPU: --device 99 requested" "$b" --quick --device 99
    expect "false-dependency --connections 1,4: one process per value, one merged table" 0 "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 2 of 2 values merged" \
        "$b" --quick --connections 1,4 --json "$tmp/sweep.json" --csv "$tmp/sweep.csv"
    check "the merged JSON has both runs' rows, tagged with C" \
        python3 tests/validate.py json "$tmp/sweep.json" --expect rows.1.params.connections.value=1 --expect rows.4.params.connections.value=4
    check "the merged JSON keeps each run's device line" \
        python3 tests/validate.py json "$tmp/sweep.json" --expect rows.0.device.max_connections=1 --expect rows.3.device.max_connections=4
    check "the merged CSV has six rows" python3 tests/validate.py csv "$tmp/sweep.csv" --rows 6 --columns connections,makespan_median_ms
    expect "false-dependency --profile: one run per configuration" 0 "^verdict: PASS" "$b" --quick --profile --json "$tmp/prof.json"
    check "under --profile every statistic has one sample" \
        python3 tests/validate.py json "$tmp/prof.json" --expect rows.1.values.makespan.n=1 --expect rows.0.values.span_cost.n=1
    expect "false-dependency, kernels too big to fit at once: the simulation follows their blocks through the waves" 0 \
        "depth-first S=2 makespan matches the simulation: PASS" \
        "$b" --quick --order depth --streams 2 --kernels 1 --kernel-us 50 --blocks 1024 --threads 1024
    expect "false-dependency, 64 kernels per stream: every label named (labels only: timing claims skipped)" 0 "legend: A=k0/k26/k52" \
        "$b" --quick --order breadth --streams 2 --kernels 64 --kernel-us 20 --timeline --skip-timing-claims
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
        "device-side call failed: cudaErrorInvalidConfiguration" "$b" --quick --inject-launch-error --launch fire-and-forget
    expect "nested-hello --json and --trace" 0 "^trace: " "$b" --quick --quiet --json "$tmp/nh.json" --trace "$tmp/nh.trace.json"
    check "nested-hello JSON: one row per launch mode, every claim PASS" \
        python3 tests/validate.py report "$tmp/nh.json" --rows 3 --verdict PASS --claims-verdict PASS
    check "nested-hello trace: 8 grids per mode, one track per depth, a flow from each parent to each child" \
        python3 tests/validate.py trace "$tmp/nh.trace.json" --events 24 --runs 3 --flows 21 --tracks "depth 0,depth 1,depth 2,depth 3"
    expect "nested-hello --threads 1: no children, so the parent-child claim is SKIP n/a" 0 \
        "every tail-launched child starts after its parent grid ended: SKIP \(n/a: no parent-child pairs" \
        "$b" --quick --threads 1 --launch tail
    for mode in stream fire-and-forget tail; do
        expect "nested-hello --blocks 1024 --threads 1024 --launch $mode: the pending-launch pool is sized to the tree" 0 \
            "^verdict: PASS" "$b" --quick --quiet --blocks 1024 --threads 1024 --launch $mode
    done
fi
finish
