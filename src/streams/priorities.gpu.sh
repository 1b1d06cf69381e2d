# shellcheck shell=bash disable=SC2154
# priorities.gpu.sh - priorities' cases in the GPU suite (make test-gpu): the probes with one queue, where
# priority gains nothing behind a blocked head, and their rows in the JSON (the default C runs in the suite's loop).
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin priorities; then
    b=$BIN/priorities
    expect "priorities --quick --connections 1: priority gains B nothing behind a blocked head, as the model says" 0 \
        "CLAIM queue, C=1: priority gains B behind a blocked head what the model says: PASS" \
        "$b" --quick --connections 1 --json "$tmp/prio.json"
    check "priorities JSON: every claim PASS" \
        python3 tests/check_outputs.py report "$tmp/prio.json" --verdict PASS --claims-verdict PASS
    check "priorities JSON: the urgent table starts at the least urgent priority, with one queue" \
        python3 tests/check_outputs.py json "$tmp/prio.json" --expect rows.0.table=urgent \
        --expect "rows.0.variant=priority 0" --expect rows.0.params.b_priority.value=0 \
        --expect rows.0.params.connections.value=1
fi
