# shellcheck shell=bash disable=SC2154
# hyperq.gpu.sh - hyperq's cases in the GPU suite (make test-gpu): a merged --connections sweep whose
# JSON holds the sweep's and the legacy part's rows, and plot-hyperq.py reading it.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin hyperq; then
    b=$BIN/hyperq
    expect "hyperq --quick --connections 1,8: one process per value, one merged table" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 2 of 2 values merged" "$b" --quick --connections 1,8 --json "$tmp/hq.json"
    check "hyperq JSON: per C, four sweep rows (S=16,64 x depth, breadth), then two legacy rows" \
        python3 tests/check_outputs.py json "$tmp/hq.json" --expect rows.0.table=sweep --expect rows.3.params.streams.value=64 \
        --expect rows.4.table=legacy --expect rows.5.params.stream_kind.value=blocking --expect rows.6.params.connections.value=8
    expect "plot-hyperq.py records hyperq's sweep" 0 "^(plot: |plot skipped)" \
        python3 experiments/plot-hyperq.py "$tmp/hq.json" --out "$tmp/hq-plot"
fi
