# shellcheck shell=bash disable=SC2154
# queue-map.gpu.sh - queue-map's cases in the GPU suite (make test-gpu): with one queue, every other
# stream's short kernel waits behind D, in all eight probes' first; the JSON has the eight rows.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin queue-map; then
    b=$BIN/queue-map
    expect "queue-map --quick --connections 1 --json" 0 "^verdict: PASS" "$b" --quick --connections 1 --json "$tmp/qm.json"
    check "queue-map JSON: eight probes; with one queue all 15 other streams waited behind D, as the model says" \
        python3 tests/check_outputs.py json "$tmp/qm.json" --expect rows.0.variant="non-blocking busy" \
        --expect rows.7.variant="blocking idle +legacy" --expect rows.0.values.waited.value=15 \
        --expect rows.0.values.model_waited.value=15
fi
