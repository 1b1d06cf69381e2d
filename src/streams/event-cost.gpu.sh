# shellcheck shell=bash disable=SC2154
# event-cost.gpu.sh - event-cost's cases in the GPU suite (make test-gpu): the five chains in the JSON.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
# ("event-cost --quick exits 0" comes from the loop over every binary at the top of tests/gpu.sh.)
if need_bin event-cost; then
    b=$BIN/event-cost
    expect "event-cost --json: five chains" 0 "^verdict: PASS" "$b" --quick --json "$tmp/event-cost.json"
    check "event-cost JSON: cost rows, each event row with its added gap" \
        python3 tests/check_outputs.py json "$tmp/event-cost.json" --expect rows.0.variant="stream order" \
        --expect rows.4.variant="cross stream, timing" --expect rows.4.values.added_gap.unit=us
fi
