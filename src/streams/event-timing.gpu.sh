# shellcheck shell=bash disable=SC2154
# event-timing.gpu.sh - event-timing's cases in the GPU suite (make test-gpu): the events bracket the spans.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
# ("event-timing --quick exits 0" comes from the loop over every binary at the top of tests/gpu.sh.)
if need_bin event-timing; then
    b=$BIN/event-timing
    expect "event-timing: events bracket the spans at every length" 0 \
        "^CLAIM accuracy 1000 us queued: cudaEventElapsedTime is never shorter than the region's span.*: PASS" \
        "$b" --quick
fi
