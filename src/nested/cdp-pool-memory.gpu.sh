# shellcheck shell=bash disable=SC2154
# cdp-pool-memory.gpu.sh - cdp-pool-memory's cases in the GPU suite (make test-gpu):
# the memory per pending launch.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect and need_bin and $BIN (the binaries).
if need_bin cdp-pool-memory; then
    b=$BIN/cdp-pool-memory
    expect "cdp-pool-memory: a larger limit reserves more device memory" 0 \
        "a larger pending-launch limit reserves more device memory \(runtime API reference\): PASS" "$b" --quick
    expect "cdp-pool-memory: bytes per pending launch are printed" 0 "^finding: [0-9]+ bytes of device memory per pending launch" \
        "$b" --quick
fi
