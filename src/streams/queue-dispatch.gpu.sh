# shellcheck shell=bash disable=SC2154
# queue-dispatch.gpu.sh - queue-dispatch's cases in the GPU suite (make test-gpu): the three probes
# with one queue, and their rows in the JSON.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin queue-dispatch; then
    b=$BIN/queue-dispatch
    expect "queue-dispatch --quick --connections 1 --json" 0 "^verdict: PASS" "$b" --quick --connections 1 --json "$tmp/qd.json"
    check "queue-dispatch JSON: three probes; A is one block behind the blocked head" \
        python3 tests/check_outputs.py json "$tmp/qd.json" --expect rows.0.variant="other stream" \
        --expect rows.2.variant="urgent behind a blocked head" --expect rows.2.params.a_blocks.value=1
fi
