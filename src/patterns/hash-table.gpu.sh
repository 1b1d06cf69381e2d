# shellcheck shell=bash disable=SC2154
# hash-table.gpu.sh - hash-table's cases in the GPU suite (make test-gpu):
# both chained tables exact from n = 1 to 2^20+7, duplicates, the output files, --profile.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin hash-table; then
    b=$BIN/hash-table
    # Done means: every table exact for n = 1, 3, 1000, 2^20+7 and 2^26 (15 CHECKs per run: CPU 3, each table 4,
    # and each table's lists again after its timed inserts).
    for n in 1 3 1000 1048583; do
        expect "hash-table --quick --keys $n: every table exact (lists, lookups)" 0 \
            "^verdict: PASS \(claims: 0 passed, 0 failed, 0 skipped; checks: 15 passed, 0 failed\)" "$b" --quick --keys $n
    done
    # 2^26 keys: tests/gpu-large.sh (make test-gpu-large), minutes of host-side checks.
    expect "hash-table --load 0.9: every table exact" 0 "^verdict: PASS" "$b" --quick --load 0.9
    expect "hash-table --dups 1000: the chained tables keep every insert" 0 \
        "^CHECK chained-lock: every key present exactly as often as inserted \(1048583 entries, 1048583 inserts\): PASS" \
        "$b" --quick --dups 1000
    expect "hash-table --dups 1: one key, one lock, every insert in turn (no warp deadlocks on it)" 0 \
        "^100000 inserts of 1 distinct keys \(duplicate-heavy, at most 100000 of one key\)" "$b" --quick --keys 100000 --dups 1
    # Every insert one key: bounded work (n exchanges, n/32 critical sections; FINDINGS' design notes), so this
    # once timed out at 60 s on n^2/2 CAS retries. Seconds now; the timeouts are generous, not a measurement.
    TEST_TIMEOUT=120 expect "hash-table --dups 1 --keys 100000: every table exact, in bounded time" 0 \
        "^verdict: PASS \(claims: 0 passed, 0 failed, 0 skipped; checks: 15 passed, 0 failed\)" \
        "$b" --quick --keys 100000 --dups 1
    expect "hash-table --dups 1 --load 0.9 at an odd size: every table exact" 0 "^verdict: PASS" \
        "$b" --quick --keys 100003 --dups 1 --load 0.9
    for t in chained-lock chained-lockfree; do
        expect "hash-table --variant cpu,$t: the CPU and $t alone" 0 "^verdict: PASS" "$b" --quick --variant cpu,$t --keys 100003
    done
    expect "hash-table: the table of the last timed insert is verified again" 0 \
        "^CHECK chained-lock \(the last timed insert\): every key present exactly as often as inserted \(1048583 entries, 1048583 inserts\): PASS" \
        "$b" --quick
    expect "hash-table: another seed, other keys, still exact" 0 "^verdict: PASS" "$b" --quick --seed 7 --keys 100003 --dups 5000
    # --keys 1: one key, so each count below follows from the model (hash-table.cu's sector count), not from a run.
    expect "hash-table --keys 1 --json --csv" 0 "^verdict: PASS" "$b" --quick --keys 1 --json "$tmp/ht.json" --csv "$tmp/ht.csv"
    check "hash-table JSON: 3 CPU rows, 3 ops x 2 tables, 2 gathers; no claim" \
        python3 tests/check_outputs.py report "$tmp/ht.json" --rows 11 --verdict PASS
    # Rows are op-major (the lab's configurations): insert, lookup-present, lookup-absent, each cpu, chained-lock,
    # chained-lockfree; then the two gathers.
    check "hash-table JSON: one key: 2 sectors per chained hit (head, entry), inserts as modelled" \
        python3 tests/check_outputs.py json "$tmp/ht.json" --expect rows.4.variant=chained-lock \
        --expect rows.4.params.op.value=lookup-present --expect rows.4.values.sectors_per_op.value=2 \
        --expect rows.1.variant=chained-lock --expect rows.1.params.op.value=insert --expect rows.1.values.sectors_per_op.value=2 \
        --expect rows.2.variant=chained-lockfree --expect rows.2.values.sectors_per_op.value=1 \
        --expect rows.10.table=random-gather --expect rows.10.params.accesses.value=4194304
    check "hash-table CSV: the columns the README's table is made from" \
        python3 tests/check_outputs.py csv "$tmp/ht.csv" --rows 11 \
        --columns variant,op,keys,load,dups,size_MB,time_median_us,mops_Mops/s,vs_cpu_x,sectors_per_op,sector_rate_Gsectors/s,of_limit_%,bandwidth_GB/s,verdict
    expect "hash-table --profile: one run per configuration" 0 "^verdict: PASS" "$b" --quick --profile --json "$tmp/htp.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/htp.json" --expect rows.0.values.time.n=1 --expect rows.7.values.time.n=1 \
        --expect rows.10.values.time.n=1
    expect "hash-table --skip-timing-claims (as under compute-sanitizer): every check passes" 0 \
        "^verdict: PASS \(claims: 0 passed, 0 failed, 0 skipped; checks: 15 passed" "$b" --quick --skip-timing-claims
fi
