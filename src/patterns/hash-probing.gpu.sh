# shellcheck shell=bash disable=SC2154
# hash-probing.gpu.sh - hash-probing's cases in the GPU suite (make test-gpu):
# open addressing exact from n = 1 to 2^20+7, duplicates, the claim's SKIPs, the output files,
# --profile.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin hash-probing; then
    b=$BIN/hash-probing
    # Done means: exact for n = 1, 3, 1000, 2^20+7 and 2^26 (9 CHECKs per run: CPU 3, open addressing 4, and its
    # slots again after its timed inserts).
    for n in 1 3 1000 1048583; do
        expect "hash-probing --quick --keys $n: exact (slots, counts, lookups)" 0 \
            "^verdict: PASS \(claims: 0 passed, 0 failed, 1 skipped; checks: 9 passed, 0 failed\)" "$b" --quick --keys $n
    done
    # 2^26 keys: tests/gpu-large.sh (make test-gpu-large), minutes of host-side checks.
    expect "hash-probing --load 0.9: exact" 0 "^verdict: PASS" "$b" --quick --load 0.9
    # Every one of 1000 keys is drawn (2^20 draws), so the counts are known without the table.
    expect "hash-probing --dups 1000: open addressing keeps one slot per key, with its count" 0 \
        "^CHECK open-addressing: slots used 1000 = distinct keys 1000, counts sum to 1048583 = inserts 1048583: PASS" \
        "$b" --quick --dups 1000
    # Every insert one key: at most one CAS per insert (a key found in its slot ends the probe).
    TEST_TIMEOUT=120 expect "hash-probing --dups 1 --keys 100000: exact, in bounded time" 0 \
        "^verdict: PASS \(claims: 0 passed, 0 failed, 1 skipped; checks: 9 passed, 0 failed\)" \
        "$b" --quick --keys 100000 --dups 1
    expect "hash-probing --dups 1 --load 0.9 at an odd size: exact" 0 "^verdict: PASS" \
        "$b" --quick --keys 100003 --dups 1 --load 0.9
    expect "hash-probing --variant open-addressing alone" 0 "^verdict: PASS" \
        "$b" --quick --variant open-addressing --keys 100003
    expect "hash-probing: the slots of the last timed insert are verified again" 0 \
        "^CHECK open-addressing \(the last timed insert\): slots used 1048583 = distinct keys 1048583, .*: PASS" "$b" --quick
    expect "hash-probing: another seed, other keys, still exact" 0 "^verdict: PASS" "$b" --quick --seed 7 --keys 100003 --dups 5000
    # The claim's SKIPs, each with its reason (the claim itself is judged by the README's run at 2^24).
    expect "hash-probing --quick: the claim is SKIP below 4x the L2" 0 \
        "^CLAIM open-addressing lookups of present keys at load 0\.5 .*: SKIP \(the slots \([0-9.]+ MB\) are less than 4x the L2" \
        "$b" --quick
    expect "hash-probing --load 0.7: the claim is SKIP (judged at 0.5)" 0 \
        "^CLAIM open-addressing lookups .*: SKIP \(judged at --load 0\.5; this run used 0\.70\)" "$b" --quick --load 0.7
    expect "hash-probing --dups: the claim is SKIP (judged on distinct keys)" 0 \
        "^CLAIM open-addressing lookups .*: SKIP \(judged on distinct keys" "$b" --quick --dups 65536
    # --keys 1: one key, so each count below follows from the model (hash-probing.cu's sector count), not from a run.
    expect "hash-probing --keys 1 --json --csv" 0 "^verdict: PASS" "$b" --quick --keys 1 --json "$tmp/hp.json" --csv "$tmp/hp.csv"
    check "hash-probing JSON: 3 CPU rows, 3 open-addressing rows, 1 gather; every claim PASS or SKIP" \
        python3 tests/check_outputs.py report "$tmp/hp.json" --rows 7 --verdict PASS
    # Rows are op-major (the lab's configurations): insert, lookup-present, lookup-absent, each cpu and
    # open-addressing; then the gather.
    check "hash-probing JSON: one key: 1 sector per hit, an insert's walk and its count word" \
        python3 tests/check_outputs.py json "$tmp/hp.json" --expect rows.3.variant=open-addressing \
        --expect rows.3.params.op.value=lookup-present --expect rows.3.values.sectors_per_op.value=1 \
        --expect rows.1.variant=open-addressing --expect rows.1.values.sectors_per_op.value=2 \
        --expect rows.6.table=random-gather --expect rows.6.params.accesses.value=4194304
    check "hash-probing CSV: the columns the README's table is made from" \
        python3 tests/check_outputs.py csv "$tmp/hp.csv" --rows 7 \
        --columns variant,op,keys,load,dups,size_MB,time_median_us,mops_Mops/s,vs_cpu_x,sectors_per_op,sector_rate_Gsectors/s,of_limit_%,bandwidth_GB/s,verdict
    expect "hash-probing --profile: one run per configuration" 0 "^verdict: PASS" "$b" --quick --profile --json "$tmp/hpp.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/hpp.json" --expect rows.0.values.time.n=1 --expect rows.5.values.time.n=1 \
        --expect rows.6.values.time.n=1
    expect "hash-probing --skip-timing-claims (as under compute-sanitizer): checks pass, the claim SKIP" 0 \
        "^verdict: PASS \(claims: 0 passed, 0 failed, 1 skipped; checks: 9 passed" "$b" --quick --skip-timing-claims
    # Not in the suite (a claim judged on three samples would flake; nested-reduce does the same):
    #   build/bin/hash-probing --repeat 20                    -> CLAIM ... at least 50% of the random-access limit: PASS
    #   build/bin/hash-probing --keys 67108864 --repeat 5     -> the same claim at 2^26
fi
