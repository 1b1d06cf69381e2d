# shellcheck shell=bash disable=SC2154
# scan-nocdp.gpu.sh - scan-nocdp's cases in the GPU suite (make test-gpu):
# every variant but hierarchical-cdp, without the device runtime.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin scan-nocdp; then
    expect "scan-nocdp: every variant but hierarchical-cdp, without the device runtime" 0 \
        "^verdict: PASS" "$BIN/scan-nocdp" --quick --type int --kind exclusive
fi
