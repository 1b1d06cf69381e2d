# shellcheck shell=bash disable=SC2154
# atomic-lock.gpu.sh - atomic-lock's cases in the GPU suite (make test-gpu):
# every part and size, the lock's guard (--never-release), contention, the output files, --profile.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin atomic-lock; then
    b=$BIN/atomic-lock
    for p in dot contention its; do
        expect "atomic-lock --quick --part $p" 0 "^verdict: PASS" "$b" --quick --part $p
    done
    # The sizes: every variant within gl_tolerance_sum (float), every block through the lock once.
    for n in 1 3 1000 1048583 67108864; do
        expect "atomic-lock --part dot --n $n: every variant within its tolerance" 0 "^verdict: PASS" \
            "$b" --quick --part dot --n $n
    done
    expect "atomic-lock: the sum under the lock matches the double reference" 0 \
        "^CHECK lock: a \. b matches the double reference: PASS" "$b" --quick --part dot
    expect "atomic-lock: every block's partial went through the lock exactly once, no timeout" 0 \
        "^CHECK lock: every block's partial went through the lock once \(([0-9]+) of \1 acquisitions, 0 timed out\): PASS" \
        "$b" --quick --part dot
    expect "atomic-lock: the lock stays within the tolerance in every run, not only the first" 0 \
        "^CHECK lock: every run within the tolerance, warm-up and timed ones too \(5 of 5 runs" "$b" --quick --part dot
    expect "atomic-lock: cub over a transform iterator matches the reference" 0 \
        "^CHECK cub: a \. b matches the double reference: PASS" "$b" --quick --part dot
    expect "atomic-lock: cpu-float is shown, not checked (sequential order)" 0 \
        "^CHECK cpu-float matches the reference: SKIP \(shown, not checked" "$b" --quick --part dot
    # Independent thread scheduling: the claim is a fact judged on the device in every run (quick: 1 + 1 + 3 runs).
    expect "atomic-lock: a per-thread lock in one warp completes (sm_70+)" 0 \
        "^CLAIM per-thread lock, 1x32: .*: PASS \(32 of 32 threads took it in each of 5 runs; 0 timed out" \
        "$b" --quick --part its
    expect "atomic-lock: a per-thread lock in a block of 1024 completes" 0 \
        "^CLAIM per-thread lock, 1x1024: .*: PASS \(1024 of 1024 threads" "$b" --quick --part its
    expect "atomic-lock: the per-thread lock over 8 blocks of 1024" 0 \
        "^CLAIM per-thread lock, 8x1024: .*: PASS \(8192 of 8192 threads" "$b" --quick --part its --its-blocks 8
    expect "atomic-lock: the seed's warp-turn loop, every lane once" 0 \
        "^CHECK warp-turn 1x32: every thread took the lock exactly once \(32 acquisitions of 32, 32 distinct threads, 0 timed out\): PASS" \
        "$b" --quick --part its
    expect "atomic-lock prints the order in which the lanes of one warp took the lock" 0 \
        "^per-thread 1x32: the lanes took the lock in the order( [0-9]+){32}$" "$b" --quick --part its
    # The guard: a holder that never releases makes every other thread time out on the device; the run ends, exit 1.
    expect "atomic-lock --never-release: the timeout is a failed claim (exit 1), never a hang" 1 \
        "^CLAIM per-thread lock, 1x32: .*: FAIL \(timed out: 31 acquires gave up" \
        "$b" --quick --part its --never-release --timeout-ms 100
    expect "atomic-lock --never-release: the warp-turn rows still pass" 1 \
        "^CHECK warp-turn 1x1024: every thread took the lock exactly once .*: PASS" \
        "$b" --quick --part its --never-release --timeout-ms 100
    expect "atomic-lock contention: every configuration counts exactly under the lock" 0 \
        "^CHECK 1 threads x 4/SM: the counter under the lock is exact, none timed out .*: PASS" \
        "$b" --quick --part contention
    expect "atomic-lock contention: blocks that cannot be resident together are SKIP with the reason" 0 \
        "^skipped: contention lock: 4 blocks of 1024 threads per SM do not fit at once \(occupancy: [0-9]+\)" \
        "$b" --quick --part contention --threads 1024 --blocks-per-sm 1,4
    expect "atomic-lock --json --csv (dot)" 0 "^verdict: PASS" "$b" --quick --part dot --json "$tmp/al-dot.json" --csv "$tmp/al-dot.csv"
    check "atomic-lock dot JSON: six variants, nothing failed" \
        python3 tests/check_outputs.py report "$tmp/al-dot.json" --rows 6 --verdict PASS
    check "atomic-lock dot CSV: time, error columns and the ratio to cub" \
        python3 tests/check_outputs.py csv "$tmp/al-dot.csv" --rows 6 \
        --columns variant,n,time_median_us,abs_error,rel_error,spread,vs_cub_x,verdict
    check "atomic-lock dot JSON: two-pass and cub add in a fixed order (no spread over runs)" \
        python3 tests/check_outputs.py json "$tmp/al-dot.json" --expect rows.4.variant=two-pass --expect rows.4.values.spread.value=0 \
        --expect rows.5.variant=cub --expect rows.5.values.spread.value=0
    expect "atomic-lock --json --csv (its)" 0 "^verdict: PASS" "$b" --quick --part its --json "$tmp/al-its.json" --csv "$tmp/al-its.csv"
    check "atomic-lock its JSON: 2 shapes x 2 variants, every claim PASS" \
        python3 tests/check_outputs.py report "$tmp/al-its.json" --rows 4 --verdict PASS --claims-verdict PASS
    check "atomic-lock its CSV: time per acquire and the warp-turn ratio" \
        python3 tests/check_outputs.py csv "$tmp/al-its.csv" --rows 4 \
        --columns variant,blocks,threads,acquires,per_acquire_median_ns,timeouts,vs_per_thread_x,verdict
    expect "atomic-lock --json (contention)" 0 "^verdict: PASS" "$b" --quick --part contention --json "$tmp/al-con.json"
    check "atomic-lock contention JSON: 3 block sizes x 2 per-SM counts (1024 x 4 SKIP)" \
        python3 tests/check_outputs.py report "$tmp/al-con.json" --rows 6 --verdict PASS
    expect "atomic-lock --profile: one run per configuration" 0 "^verdict: PASS" \
        "$b" --quick --profile --part its --json "$tmp/alp.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/alp.json" --expect rows.0.values.per_acquire.n=1
    # Under compute-sanitizer (make sanitize-atomic-lock) the gate is off and timing claims SKIP; the ITS claim is an
    # ordering fact, so it is still judged.
    expect "atomic-lock --skip-timing-claims: the ITS claim is still judged" 0 \
        "^CLAIM per-thread lock, 1x32: .*: PASS" "$b" --quick --part its --skip-timing-claims
fi
