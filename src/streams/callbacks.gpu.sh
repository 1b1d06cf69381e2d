# shellcheck shell=bash disable=SC2154
# callbacks.gpu.sh - callbacks' cases in the GPU suite (make test-gpu): one queue against eight in one merged
# sweep (B's kernel behind A's host function waits for A's kernel, not the function, at C=1 too), the rows in the JSON, and the trace of
# the slow rows (the default C runs in the suite's loop).
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin callbacks; then
    b=$BIN/callbacks
    expect "callbacks --quick --connections 1,8: the slow rows as the model says at both C, one merged table" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 2 of 2 values merged" \
        "$b" --quick --connections 1,8 --json "$tmp/cb.json"
    check "callbacks JSON: every claim and check PASS" \
        python3 tests/check_outputs.py report "$tmp/cb.json" --rows 10 --verdict PASS --claims-verdict PASS
    check "callbacks JSON: three pattern rows, then the slow rows, at C=1 and then C=8" \
        python3 tests/check_outputs.py json "$tmp/cb.json" --expect rows.0.table=pattern \
        --expect rows.0.variant=cudaLaunchHostFunc --expect rows.1.variant=cudaStreamAddCallback \
        --expect "rows.3.variant=one function" --expect rows.3.params.connections.value=1 \
        --expect "rows.9.variant=two functions" --expect rows.9.params.connections.value=8
    expect "callbacks --connections 1: B's kernel behind A's host function waits as the model says" 0 \
        "CLAIM slow, one function, C=1: B's kernel issued behind A's host function waits where the model puts it: PASS" \
        "$b" --quick --connections 1 --trace "$tmp/cb.trace.json"
    check "callbacks trace: each slow row's 4 kernels, measured and simulated, on streams A and B" \
        python3 tests/check_outputs.py trace "$tmp/cb.trace.json" --events 16 --runs 4 --tracks "stream A,stream B"
    expect "callbacks --streams 32: every callback sees its own stream's results" 0 \
        "CHECK pattern, cudaStreamAddCallback: every function saw all of its stream's 65536 results as the CPU's.*: PASS" \
        "$b" --quick --streams 32 --skip-timing-claims
fi
