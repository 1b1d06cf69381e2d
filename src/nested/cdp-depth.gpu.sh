# shellcheck shell=bash disable=SC2154
# cdp-depth.gpu.sh - cdp-depth's cases in the GPU suite (make test-gpu):
# the depth chains, and a --connections sweep whose runs each start their own children.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect and need_bin and $BIN (the binaries).
if need_bin cdp-depth; then
    b=$BIN/cdp-depth
    expect "cdp-depth: every chain ends cleanly" 0 "^verdict: PASS" "$b" --quick
    expect "cdp-depth --max-depth 3: the chain reaches it without a failed launch" 0 \
        "^finding: tail: the chain reached --max-depth 3 without a failed launch" "$b" --quick --max-depth 3 --launch tail
    expect "cdp-depth --quick --connections 1,2: each run forks its own children, one merged report" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 2 of 2 values merged" "$b" --quick --connections 1,2
fi
