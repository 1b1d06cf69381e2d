# shellcheck shell=bash disable=SC2154
# lock-contention.gpu.sh - lock-contention's cases in the GPU suite (make test-gpu):
# the counter exact under the lock in every configuration, the SKIP of blocks that cannot be resident, the JSON.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin lock-contention; then
    b=$BIN/lock-contention
    expect "lock-contention: every configuration counts exactly under the lock" 0 \
        "^CHECK 1 threads x 4/SM: the counter under the lock is exact, none timed out .*: PASS" "$b" --quick
    expect "lock-contention: blocks that cannot be resident together are SKIP with the reason" 0 \
        "^skipped: contention lock: 4 blocks of 1024 threads per SM do not fit at once \(occupancy: [0-9]+\)" \
        "$b" --quick --threads 1024 --blocks-per-sm 1,4
    expect "lock-contention --json" 0 "^verdict: PASS" "$b" --quick --json "$tmp/lc.json"
    check "lock-contention JSON: 3 block sizes x 2 per-SM counts (1024 x 4 SKIP)" \
        python3 tests/check_outputs.py report "$tmp/lc.json" --rows 6 --verdict PASS
fi
