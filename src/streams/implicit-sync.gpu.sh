# shellcheck shell=bash disable=SC2154
# implicit-sync.gpu.sh - implicit-sync's cases in the GPU suite (make test-gpu):
# every claim at C = 1, 8 and 32, a row per call and stream kind, the output files.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin implicit-sync; then
    b=$BIN/implicit-sync
    expect "implicit-sync --quick --connections 1,8,32: every claim passes at each C" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 3 of 3 values merged" "$b" --quick --connections 1,8,32 --json "$tmp/is-sweep.json"
    check "implicit-sync sweep JSON: null-stream + 16 call rows per C, every claim PASS" \
        python3 tests/check_outputs.py report "$tmp/is-sweep.json" --rows 51 --verdict PASS --claims-verdict PASS
    expect "implicit-sync: one row per call and stream kind, each with serializes: yes/no" 0 \
        "CLAIM cudaMalloc \+ cudaFree \(1 MiB\), non-blocking streams: serializes: (yes|no), in every run: PASS" \
        "$b" --quick --json "$tmp/is.json" --csv "$tmp/is.csv"
    check "implicit-sync CSV: 16 call rows plus the null-stream row, with the decision columns" \
        python3 tests/check_outputs.py csv "$tmp/is.csv" --rows 17 \
        --columns variant,stream_kind,serializes,host_blocks,model_op,call_duration_median_us,b_after_a_median_us
    # cudaEventQuery never waits: the query answers "not ready" while A runs (C = 8: the record does not hold B).
    check "implicit-sync: cudaEventQuery does not serialize (non-blocking streams)" \
        python3 tests/check_outputs.py json "$tmp/is.json" --expect rows.8.variant=event-query --expect rows.8.values.serializes.value=no
    # Under compute-sanitizer every claim about time is SKIP; the checks and the stream-0 claim still hold.
    expect "implicit-sync --skip-timing-claims: the stream-0 claim still passes" 0 \
        "CLAIM in the legacy build, stream 0 is the legacy default stream: PASS" "$b" --quick --skip-timing-claims
fi
