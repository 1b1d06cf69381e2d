# shellcheck shell=bash disable=SC2154
# false-dependency.gpu.sh - false-dependency's cases in the GPU suite (make test-gpu):
# one queue and the staircase model, the output files, a merged --connections sweep, --profile,
# kernels in waves, 64 labels.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin false-dependency; then
    b=$BIN/false-dependency
    expect "false-dependency --quick --connections 1: one queue, the staircase model" 0 \
        "CUDA_DEVICE_MAX_CONNECTIONS 1 \(CUDA_DEVICE_MAX_CONNECTIONS\)" "$b" --quick --connections 1
    expect "false-dependency reads CUDA_DEVICE_MAX_CONNECTIONS from the environment" 0 \
        "CUDA_DEVICE_MAX_CONNECTIONS 2 \(CUDA_DEVICE_MAX_CONNECTIONS\)" env CUDA_DEVICE_MAX_CONNECTIONS=2 "$b" --quick --order depth
    expect "false-dependency writes --json, --csv, --trace and draws --timeline" 0 "^timeline: makespan depth C=2" \
        "$b" --quick --order depth --connections 2 --json "$tmp/fd.json" --csv "$tmp/fd.csv" --trace "$tmp/fd.trace.json" --timeline
    check "false-dependency JSON: span-cost and depth rows, every claim PASS" \
        python3 tests/check_outputs.py report "$tmp/fd.json" --rows 2 --verdict PASS --claims-verdict PASS
    check "false-dependency CSV: two rows with statistics and verdicts" \
        python3 tests/check_outputs.py csv "$tmp/fd.csv" --rows 2 --columns variant,connections,makespan_median_ms,verdict
    check "false-dependency trace: 12 kernels measured and 12 simulated on 4 named streams, SM of every measured block" \
        python3 tests/check_outputs.py trace "$tmp/fd.trace.json" --events 24 --runs 2 \
        --tracks "stream 0,stream 1,stream 2,stream 3" --block-sms
    expect "false-dependency --device 99 exits 77" 77 "no suitable GPU: --device 99 requested" "$b" --quick --device 99
    expect "false-dependency --connections 1,4: one process per value, one merged table" 0 "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 2 of 2 values merged" \
        "$b" --quick --connections 1,4 --json "$tmp/sweep.json" --csv "$tmp/sweep.csv"
    check "the merged JSON has both runs' rows, tagged with C" \
        python3 tests/check_outputs.py json "$tmp/sweep.json" --expect rows.1.params.connections.value=1 --expect rows.4.params.connections.value=4
    check "the merged JSON keeps each run's device line" \
        python3 tests/check_outputs.py json "$tmp/sweep.json" --expect rows.0.device.max_connections=1 --expect rows.3.device.max_connections=4
    check "the merged CSV has six rows" python3 tests/check_outputs.py csv "$tmp/sweep.csv" --rows 6 --columns connections,makespan_median_ms
    expect "false-dependency --profile: one run per configuration" 0 "^verdict: PASS" "$b" --quick --profile --json "$tmp/prof.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/prof.json" --expect rows.1.values.makespan.n=1 --expect rows.0.values.span_cost.n=1
    expect "false-dependency, kernels too big to fit at once: the simulation follows their blocks through the waves" 0 \
        "depth-first S=2 makespan matches the simulation: PASS" \
        "$b" --quick --order depth --streams 2 --kernels 1 --kernel-us 50 --blocks 1024 --threads 1024
    expect "false-dependency, 64 kernels per stream: every label named (labels only: timing claims skipped)" 0 "legend: A=k0/k26/k52" \
        "$b" --quick --order breadth --streams 2 --kernels 64 --kernel-us 20 --timeline --skip-timing-claims
fi
