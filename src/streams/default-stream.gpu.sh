# shellcheck shell=bash disable=SC2154
# default-stream.gpu.sh - default-stream's cases in the GPU suite (make test-gpu):
# every claim at C = 1, 8 and 32, the legacy barrier and its absence, the output files.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin default-stream; then
    b=$BIN/default-stream
    # The Done means: every claim passes at C = 1, 8 and 32 (one process per C, one merged table).
    expect "default-stream --quick --connections 1,8,32: every claim passes at each C" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 3 of 3 values merged" "$b" --quick --connections 1,8,32 --json "$tmp/ds-sweep.json"
    check "default-stream sweep JSON: null-stream + 3 pattern rows per C, every claim PASS" \
        python3 tests/check_outputs.py report "$tmp/ds-sweep.json" --rows 12 --verdict PASS --claims-verdict PASS
    expect "default-stream: stream 0 is the legacy stream in the legacy build" 0 \
        "CLAIM in the legacy build, stream 0 is the legacy default stream: PASS" "$b" --quick --variant blocking
    expect "default-stream blocking: kernel_3 on the legacy stream is a barrier (every legacy edge, every run)" 0 \
        "CLAIM blocking S=4: kernel_3 is a barrier: every one of the 8 legacy-stream orderings holds .*: PASS \(GPU: 32 of 32 held" \
        "$b" --quick --variant blocking
    expect "default-stream non-blocking: the barrier is gone, on the GPU and in the model" 0 \
        "CLAIM non-blocking S=4: no barrier: .*: PASS \(of the 8 orderings a legacy barrier would impose, some broken in 4 of 4 runs on the GPU, 4 of 4 in the model" \
        "$b" --quick --variant non-blocking
    expect "default-stream per-thread (cudaStreamPerThread): no barrier across blocking streams" 0 \
        "CLAIM per-thread S=4: no barrier: .*: PASS" "$b" --quick --variant per-thread
    expect "default-stream at C=1, S=1: one queue, one stream, still no barrier without the legacy stream" 0 \
        "CLAIM non-blocking S=1: no barrier: .*: PASS" "$b" --quick --variant non-blocking --streams 1 --connections 1
    expect "default-stream, 32 streams at C=8: four streams per queue" 0 "^verdict: PASS" "$b" --quick --variant all --streams 32
    expect "default-stream writes --trace: each variant measured beside its model" 0 "^trace: " \
        "$b" --quick --variant blocking --trace "$tmp/ds.trace.json"
    check "default-stream trace: 13 kernels (3S+1, S=4) measured and 13 simulated, on 4 streams and the legacy stream" \
        python3 tests/check_outputs.py trace "$tmp/ds.trace.json" --events 26 --runs 2 \
        --tracks "stream 0,stream 1,stream 2,stream 3,legacy stream" --block-sms
    # Under compute-sanitizer kernels run one at a time: the barrier's edges still hold (ordering), the rest is SKIP.
    expect "default-stream --skip-timing-claims: the ordering claims still pass" 0 \
        "CLAIM blocking S=4: kernel_3 is a barrier: .*: PASS" "$b" --quick --skip-timing-claims
fi
