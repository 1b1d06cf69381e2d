# shellcheck shell=bash disable=SC2154
# nested-race.gpu.sh - nested-race's cases in the GPU suite (make test-gpu): the racy nosync races with its
# writers held back, and the race-free chains stay exact under the same delay.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin nested-race; then
    b=$BIN/nested-race
    expect "nested-race: the racy nosync sums wrong when its writers are held back" 0 \
        "nested-nosync-racy races: a child can read halves not yet written: PASS" \
        "$b" --quick --variant nested-nosync-racy --n 65536 --race-delay-us 50
    expect "nested-race at its defaults (2^16, writers held back 50 us): the race is seen" 0 \
        "nested-nosync-racy races: a child can read halves not yet written: PASS" "$b" --quick
    for v in nested nested-nosync; do
        expect "nested-race: $v stays exact with its writers held back 50 us" 0 "^CHECK $v sums 65536 ints exactly.*: PASS" \
            "$b" --quick --variant $v --n 65536 --race-delay-us 50
    done
fi
