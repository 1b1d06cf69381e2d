# shellcheck shell=bash disable=SC2154
# module-loading.gpu.sh - module-loading's cases in the GPU suite (make test-gpu): both loading modes, one
# process each, merged into one report with the lazy-cost rows; one mode alone, in this process.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin module-loading; then
    b=$BIN/module-loading
    expect "module-loading --quick --connections 8: a lazy and an eager process, one merged report" 0 \
        "== module loading: every mode merged" "$b" --quick --connections 8 --json "$tmp/ml.json"
    check "module-loading JSON: lazy rows, eager rows (blocking, then non-blocking), then one lazy-cost row per kind" \
        python3 tests/check_outputs.py json "$tmp/ml.json" --expect rows.0.variant="lazy blocking" \
        --expect rows.0.device.module_loading=lazy --expect rows.3.variant="eager non-blocking" \
        --expect rows.3.params.loads_per_run.value=0 --expect rows.4.table=lazy-cost \
        --expect rows.5.params.stream_kind.value=non-blocking --expect rows.4.params.connections.value=8
    expect "module-loading --quick --loading lazy --connections 1: one process, the driver in lazy mode" 0 \
        "module loading lazy \(CUDA_MODULE_LOADING=LAZY\)" "$b" --quick --loading lazy --kind blocking --connections 1
fi
