# shellcheck shell=bash disable=SC2154
# nested-reduce.gpu.sh - nested-reduce's cases in the GPU suite (make test-gpu):
# every variant exact from n = 1 to 2^26, the pool overflow as exit 3, the trace of the trees (the race:
# nested-race.gpu.sh).
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin nested-reduce; then
    b=$BIN/nested-reduce
    for n in 1 2 3 1000 1048583; do
        expect "nested-reduce --quick --n $n: every variant exact, launches as predicted" 0 "^verdict: PASS" "$b" --quick --n $n
    done
    # Three samples judge no speed: the claims at 2^26 are made by the full run in the README.
    expect "nested-reduce at 2^26: every variant exact (the textbook trees sliced to the runtime's largest pool)" 0 \
        "^verdict: PASS" "$b" --quick --n 67108864 --skip-timing-claims
    expect "nested-reduce --block 2: one-level trees, no device launches" 0 "^verdict: PASS" "$b" --quick --n 4099 --block 2
    expect "nested-reduce --block 1024 at an odd size" 0 "^verdict: PASS" "$b" --quick --n 100003 --block 1024
    expect "nested-reduce prints the textbook's K40c ratio at 2^20" 0 "^nested / nested2: [0-9]+x here; 216x on the textbook's K40c" \
        "$b" --quick --variant all
    expect "nested-reduce --pool 64: the overflow reaches the host as exit 3" 3 "cudaErrorLaunchPendingCountExceeded" \
        "$b" --quick --variant nested --pool 64
    expect "nested-reduce --trace: the trees of every nested variant" 0 "^trace: " "$b" --quick --n 4096 --trace "$tmp/nr.trace.json" --json "$tmp/nr.json"
    check "nested-reduce trace: 65 + 65 + 9 + 1 + 1 grids in 5 runs, a flow from each parent to each child" \
        python3 tests/check_outputs.py trace "$tmp/nr.trace.json" --events 141 --runs 5 --flows 136
    check "nested-reduce JSON: nine variants, every claim PASS or SKIP" \
        python3 tests/check_outputs.py report "$tmp/nr.json" --rows 9 --verdict PASS
fi
