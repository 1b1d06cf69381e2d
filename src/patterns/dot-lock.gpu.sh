# shellcheck shell=bash disable=SC2154
# dot-lock.gpu.sh - dot-lock's cases in the GPU suite (make test-gpu):
# every variant at every size within its tolerance, every block through the lock once, the output files.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin dot-lock; then
    b=$BIN/dot-lock
    # The sizes: every variant within gl_tolerance_sum (float), every block through the lock once.
    for n in 1 3 1000 1048583 67108864; do
        expect "dot-lock --n $n: every variant within its tolerance" 0 "^verdict: PASS" "$b" --quick --n $n
    done
    expect "dot-lock: the sum under the lock matches the double reference" 0 \
        "^CHECK lock: a \. b matches the double reference: PASS" "$b" --quick
    expect "dot-lock: every block's partial went through the lock exactly once, no timeout" 0 \
        "^CHECK lock: every block's partial went through the lock once \(([0-9]+) of \1 acquisitions, 0 timed out\): PASS" \
        "$b" --quick
    # quick: the check run, one warm-up and three timed runs
    expect "dot-lock: the lock stays within the tolerance in every run, not only the first" 0 \
        "^CHECK lock: every run within the tolerance, warm-up and timed ones too \(5 of 5 runs" "$b" --quick
    expect "dot-lock: cub over a transform iterator matches the reference" 0 \
        "^CHECK cub: a \. b matches the double reference: PASS" "$b" --quick
    expect "dot-lock: cpu-float is shown, not checked (sequential order)" 0 \
        "^CHECK cpu-float matches the reference: SKIP \(shown, not checked" "$b" --quick
    expect "dot-lock --json --csv" 0 "^verdict: PASS" "$b" --quick --json "$tmp/dl.json" --csv "$tmp/dl.csv"
    check "dot-lock JSON: six variants, nothing failed" \
        python3 tests/check_outputs.py report "$tmp/dl.json" --rows 6 --verdict PASS
    check "dot-lock CSV: time, error columns and the ratio to cub" \
        python3 tests/check_outputs.py csv "$tmp/dl.csv" --rows 6 \
        --columns variant,n,time_median_us,abs_error,rel_error,spread,vs_cub_x,verdict
    check "dot-lock JSON: two-pass and cub add in a fixed order (no spread over runs)" \
        python3 tests/check_outputs.py json "$tmp/dl.json" --expect rows.4.variant=two-pass --expect rows.4.values.spread.value=0 \
        --expect rows.5.variant=cub --expect rows.5.values.spread.value=0
    expect "dot-lock --variant lock,cub --json: only those rows" 0 "^verdict: PASS" \
        "$b" --quick --variant lock,cub --json "$tmp/dl-two.json"
    check "dot-lock --variant lock,cub: two rows, the lock's timed against cub's" \
        python3 tests/check_outputs.py json "$tmp/dl-two.json" --expect rows.0.variant=lock --expect rows.1.variant=cub \
        --expect rows.1.values.vs_cub.value=1
fi
