# shellcheck shell=bash disable=SC2154
# cdp-limits.gpu.sh - cdp-limits's cases in the GPU suite (make test-gpu):
# the pending-launch pool and its overflow in every launch kind, the depth chains, the memory per
# launch, the output files.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin cdp-limits; then
    b=$BIN/cdp-limits
    expect "cdp-limits --quick --part pool: the default pool holds 2048, the 2049th launch fails" 0 \
        "^CLAIM tail, N=2049, the default pool \(2048, Programming Guide\): 2048 launches succeed and 1 fail, in every run: PASS" \
        "$b" --quick --part pool --launch tail
    for kind in tail fire-and-forget null; do
        expect "cdp-limits --part pool --launch $kind: the overflow reaches the host" 0 \
            "N=2049: the overflow surfaces on the device as a launch error and reaches the host: PASS" \
            "$b" --quick --part pool --launch $kind
    done
    expect "cdp-limits --part pool: no fire-and-forget child ends before the launcher's last launch (the hold works)" 0 \
        "fire-and-forget, N=2049: every accepted child ran, and none ended before the launcher's last launch: PASS" \
        "$b" --quick --part pool --launch fire-and-forget
    expect "cdp-limits --part pool: the limit set before the first device launch lets 2049 launches succeed" 0 \
        "N=2049, limit set to 2049 before the first device launch: all 2049 launches succeed, in every run: PASS" \
        "$b" --quick --part pool --launch tail
    expect "cdp-limits --part pool: the late raise is reported as a finding" 0 \
        "^finding: raising the pending-launch limit after the process's first device launch (takes effect|is refused)" \
        "$b" --quick --part pool --launch tail
    expect "cdp-limits --part depth: every chain ends cleanly" 0 "^verdict: PASS" "$b" --quick --part depth
    expect "cdp-limits --part depth --max-depth 3: the chain reaches it without a failed launch" 0 \
        "^finding: tail: the chain reached --max-depth 3 without a failed launch" "$b" --quick --part depth --max-depth 3 --launch tail
    expect "cdp-limits --part memory: a larger limit reserves more device memory" 0 \
        "a larger pending-launch limit reserves more device memory \(runtime API reference\): PASS" "$b" --quick --part memory
    expect "cdp-limits --part memory: bytes per pending launch are printed" 0 "^finding: [0-9]+ bytes of device memory per pending launch" \
        "$b" --quick --part memory
    expect "cdp-limits --json --csv" 0 "^verdict: PASS" "$b" --quick --part pool --launch tail --json "$tmp/cl.json" --csv "$tmp/cl.csv"
    check "cdp-limits JSON: 3 pool rows (2048, 2049, 2049 raised) and the late raise, every claim PASS or SKIP" \
        python3 tests/check_outputs.py report "$tmp/cl.json" --rows 4 --verdict PASS
    check "cdp-limits CSV: the pool table's counts" \
        python3 tests/check_outputs.py csv "$tmp/cl.csv" --rows 4 --columns variant,launches,ok,failed,device_error,host_wait,verdict
    expect "cdp-limits --device 99 exits 77 (said by the child)" 77 "no suitable GPU: --device 99 requested" "$b" --quick --device 99
    expect "cdp-limits --quick --connections 1,2: each run forks its own children, one merged report" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 2 of 2 values merged" "$b" --quick --part depth --connections 1,2
fi
