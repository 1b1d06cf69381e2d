# shellcheck shell=bash disable=SC2154
# histogram.gpu.sh - histogram's cases in the GPU suite (make test-gpu):
# every variant exact from n = 1 to 2^26 at 256 and 7 bins, the SKIPs and findings, the output
# files.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin histogram; then
    b=$BIN/histogram
    # Done means: every variant exact for n = 1, 3, 1000, 2^20+7 and 2^26 on every input (32 CHECKs per run).
    for bins in 256 7; do
        for n in 1 3 1000 1048583; do
            expect "histogram --quick --n $n --bins $bins: every variant exact on every input" 0 "^verdict: PASS" \
                "$b" --quick --n $n --bins $bins
        done
        expect "histogram at 2^26, --bins $bins: every variant exact on every input" 0 "^verdict: PASS" \
            "$b" --quick --n 67108864 --bins $bins --skip-timing-claims
    done
    expect "histogram: best is checked on the single value (one atomic per 16 equal bytes, an odd tail)" 0 \
        "^CHECK best on single: 256 bins of 1048583 bytes match the CPU reference exactly: PASS" "$b" --quick --input single
    expect "histogram --bins 7: cub's HistogramRange stops the last group at 'z'" 0 \
        "^CHECK cub on uniform: 7 bins of 1048583 bytes match the CPU reference exactly: PASS" "$b" --quick --bins 7 --input uniform
    expect "histogram: another seed, other inputs, still exact" 0 "^verdict: PASS" "$b" --quick --seed 7 --n 100003
    # Three samples at 1 MB judge no speed: the claim on cub is SKIP, with its reason (judged by the README's run).
    expect "histogram --quick: best against cub is SKIP below twice the L2" 0 \
        "^CLAIM best is at least as fast as cub on uniform bytes \(median, L2 flushed\): SKIP .*less than twice the L2" "$b" --quick
    expect "histogram: the contention finding is printed for the global atomics" 0 \
        "^finding: global-atomic takes [0-9.]+x as long on one repeated value as on uniform bytes" "$b" --quick
    expect "histogram: the bank model is printed per input" 0 \
        "^input text: 0 bytes in no bin; model: .* take 1\.00 bank passes" "$b" --quick --input text
    expect "histogram --json --csv" 0 "^verdict: PASS" "$b" --quick --json "$tmp/hi.json" --csv "$tmp/hi.csv"
    check "histogram JSON: 4 inputs x 8 variants, every claim PASS or SKIP" \
        python3 tests/check_outputs.py report "$tmp/hi.json" --rows 32 --verdict PASS
    # Ratios of a value to itself are 1 by definition, not copied from the output.
    check "histogram JSON: rows input-major; cub is 1x cub, uniform 1x uniform" \
        python3 tests/check_outputs.py json "$tmp/hi.json" --expect rows.7.variant=cub --expect rows.7.values.speed_vs_cub.value=1 \
        --expect rows.6.variant=best --expect rows.0.values.time_vs_uniform.value=1 --expect rows.31.params.input.value=single
    check "histogram CSV: the columns the README's table is made from" \
        python3 tests/check_outputs.py csv "$tmp/hi.csv" --rows 32 \
        --columns variant,input,bins,n,grid,time_median_us,bandwidth_GB/s,peak_fraction_%,speed_vs_cub_x,time_vs_uniform_x,verdict
    expect "histogram --skip-timing-claims (as under compute-sanitizer): checks pass, claims SKIP" 0 \
        "^CLAIM best is at least as fast as cub on single bytes .*: SKIP" "$b" --quick --skip-timing-claims
    # Not in the suite (a claim judged on three samples would flake; nested-reduce does the same):
    #   build/bin/histogram --n 1073741824 --variant best,cub --repeat 20       -> 4 CLAIMs PASS (the Done means)
fi
