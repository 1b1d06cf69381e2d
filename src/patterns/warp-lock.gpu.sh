# shellcheck shell=bash disable=SC2154
# warp-lock.gpu.sh - warp-lock's cases in the GPU suite (make test-gpu):
# the per-thread lock completes in every shape, the warp-turn loop, the guard (--never-release), the output files,
# --profile and --skip-timing-claims.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin warp-lock; then
    b=$BIN/warp-lock
    # Independent thread scheduling: the claim is a fact judged on the device in every run (quick: 1 + 1 + 3 runs).
    expect "warp-lock: a per-thread lock in one warp completes (sm_70+)" 0 \
        "^CLAIM per-thread lock, 1x32: .*: PASS \(32 of 32 threads took it in each of 5 runs; 0 timed out" "$b" --quick
    expect "warp-lock: a per-thread lock in a block of 1024 completes" 0 \
        "^CLAIM per-thread lock, 1x1024: .*: PASS \(1024 of 1024 threads" "$b" --quick
    expect "warp-lock: the per-thread lock over 8 blocks of 1024" 0 \
        "^CLAIM per-thread lock, 8x1024: .*: PASS \(8192 of 8192 threads" "$b" --quick --its-blocks 8
    expect "warp-lock: the seed's warp-turn loop, every lane once" 0 \
        "^CHECK warp-turn 1x32: every thread took the lock exactly once \(32 acquisitions of 32, 32 distinct threads, 0 timed out\): PASS" \
        "$b" --quick
    expect "warp-lock prints the order in which the lanes of one warp took the lock" 0 \
        "^per-thread 1x32: the lanes took the lock in the order( [0-9]+){32}$" "$b" --quick
    # The guard: a holder that never releases makes every other thread time out on the device; the run ends, exit 1.
    expect "warp-lock --never-release: the timeout is a failed claim (exit 1), never a hang" 1 \
        "^CLAIM per-thread lock, 1x32: .*: FAIL \(timed out: 31 acquires gave up" \
        "$b" --quick --never-release --timeout-ms 100
    expect "warp-lock --never-release: the warp-turn rows still pass" 1 \
        "^CHECK warp-turn 1x1024: every thread took the lock exactly once .*: PASS" \
        "$b" --quick --never-release --timeout-ms 100
    expect "warp-lock --json --csv" 0 "^verdict: PASS" "$b" --quick --json "$tmp/wl.json" --csv "$tmp/wl.csv"
    check "warp-lock JSON: 2 shapes x 2 variants, every claim PASS" \
        python3 tests/check_outputs.py report "$tmp/wl.json" --rows 4 --verdict PASS --claims-verdict PASS
    check "warp-lock CSV: time per acquire and the warp-turn ratio" \
        python3 tests/check_outputs.py csv "$tmp/wl.csv" --rows 4 \
        --columns variant,blocks,threads,acquires,per_acquire_median_ns,timeouts,vs_per_thread_x,verdict
    expect "warp-lock --profile: one run per configuration" 0 "^verdict: PASS" "$b" --quick --profile --json "$tmp/wlp.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/wlp.json" --expect rows.0.values.per_acquire.n=1
    # Under compute-sanitizer (make sanitize-warp-lock) timing claims SKIP; the ITS claim is an ordering fact, so it
    # is still judged.
    expect "warp-lock --skip-timing-claims: the ITS claim is still judged" 0 \
        "^CLAIM per-thread lock, 1x32: .*: PASS" "$b" --quick --skip-timing-claims
fi
