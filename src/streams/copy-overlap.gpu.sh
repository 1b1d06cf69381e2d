# shellcheck shell=bash disable=SC2154
# copy-overlap.gpu.sh - copy-overlap's cases in the GPU suite (make test-gpu): the quick sweep, pinned and
# pageable, its rows in the JSON, and an odd size whose segments are uneven.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin copy-overlap; then
    b=$BIN/copy-overlap
    expect "copy-overlap --quick --json" 0 "^verdict: PASS" "$b" --quick --json "$tmp/co.json"
    check "copy-overlap JSON: N = 1 and 4, both kernels, both memories, both orders: 12 rows" \
        python3 tests/check_outputs.py json "$tmp/co.json" --expect rows.0.params.segments.value=1 \
        --expect rows.11.params.segments.value=4
    expect "copy-overlap at an odd size, 7 segments (every element checked)" 0 "CHECK c = a \+ b: 0 of 1000003" \
        "$b" --quick --n 1000003 --segments 7 --kernel copy-bound --memory pinned --order breadth
fi
