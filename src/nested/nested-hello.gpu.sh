# shellcheck shell=bash disable=SC2154
# nested-hello.gpu.sh - nested-hello's cases in the GPU suite (make test-gpu):
# every launch mode, the textbook's hello lines, a failed device-side launch as exit 3, the output
# files, the 1024 x 1024 tree.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin nested-hello; then
    b=$BIN/nested-hello
    for mode in stream fire-and-forget tail; do
        expect "nested-hello --quick --launch $mode" 0 "^CLAIM the join probe .*: PASS" "$b" --quick --launch $mode
    done
    expect "nested-hello prints the textbook's hello lines" 0 "^depth 3 block 0 thread 0: hello" "$b" --quick --launch tail
    expect "nested-hello, the blog's layout (32 blocks x 2 threads, size 64)" 0 "^verdict: PASS" \
        "$b" --quick --quiet --blocks 32 --threads 2 --size 64
    expect "nested-hello, a 1024-thread tree, quiet" 0 "^verdict: PASS" "$b" --quick --quiet --blocks 64 --threads 1024
    expect "nested-hello: a failed device-side launch reaches the host as exit 3" 3 \
        "device-side call failed: cudaErrorInvalidConfiguration" "$b" --quick --inject-launch-error --launch fire-and-forget
    expect "nested-hello --json and --trace" 0 "^trace: " "$b" --quick --quiet --json "$tmp/nh.json" --trace "$tmp/nh.trace.json"
    check "nested-hello JSON: one row per launch mode, every claim PASS" \
        python3 tests/check_outputs.py report "$tmp/nh.json" --rows 3 --verdict PASS --claims-verdict PASS
    check "nested-hello trace: 8 grids per mode, one track per depth, a flow from each parent to each child" \
        python3 tests/check_outputs.py trace "$tmp/nh.trace.json" --events 24 --runs 3 --flows 21 --tracks "depth 0,depth 1,depth 2,depth 3"
    expect "nested-hello --threads 1: no children, so the parent-child claim is SKIP n/a" 0 \
        "every tail-launched child starts after its parent grid ended: SKIP \(n/a: no parent-child pairs" \
        "$b" --quick --threads 1 --launch tail
    for mode in stream fire-and-forget tail; do
        expect "nested-hello --blocks 1024 --threads 1024 --launch $mode: the pending-launch pool is sized to the tree" 0 \
            "^verdict: PASS" "$b" --quick --quiet --blocks 1024 --threads 1024 --launch $mode
    done
fi
