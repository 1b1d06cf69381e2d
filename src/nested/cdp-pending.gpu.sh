# shellcheck shell=bash disable=SC2154
# cdp-pending.gpu.sh - cdp-pending's cases in the GPU suite (make test-gpu):
# the pending-launch pool and its overflow in every launch kind, the raised limit, the output files.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin cdp-pending; then
    b=$BIN/cdp-pending
    expect "cdp-pending --quick: the default pool holds 2048, the 2049th launch fails" 0 \
        "^CLAIM tail, N=2049, the default pool \(2048, Programming Guide\): 2048 launches succeed and 1 fail, in every run: PASS" \
        "$b" --quick --launch tail
    for kind in tail fire-and-forget null; do
        expect "cdp-pending --launch $kind: the overflow reaches the host" 0 \
            "N=2049: the overflow surfaces on the device as a launch error and reaches the host: PASS" \
            "$b" --quick --launch $kind
    done
    expect "cdp-pending: no fire-and-forget child ends before the launcher's last launch (the hold works)" 0 \
        "fire-and-forget, N=2049: every accepted child ran, and none ended before the launcher's last launch: PASS" \
        "$b" --quick --launch fire-and-forget
    expect "cdp-pending: the limit set before the first device launch lets 2049 launches succeed" 0 \
        "N=2049, limit set to 2049 before the first device launch: all 2049 launches succeed, in every run: PASS" \
        "$b" --quick --launch tail
    expect "cdp-pending: the late raise is reported as a finding" 0 \
        "^finding: raising the pending-launch limit after the process's first device launch (takes effect|is refused)" \
        "$b" --quick --launch tail
    expect "cdp-pending --json --csv" 0 "^verdict: PASS" "$b" --quick --launch tail --json "$tmp/cl.json" --csv "$tmp/cl.csv"
    check "cdp-pending JSON: 3 pool rows (2048, 2049, 2049 raised) and the late raise, every claim PASS or SKIP" \
        python3 tests/check_outputs.py report "$tmp/cl.json" --rows 4 --verdict PASS
    check "cdp-pending CSV: the pool table's counts" \
        python3 tests/check_outputs.py csv "$tmp/cl.csv" --rows 4 --columns variant,launches,ok,failed,device_error,host_wait,verdict
    expect "cdp-pending --device 99 exits 77 (said by the child)" 77 "no suitable GPU: --device 99 requested" "$b" --quick --device 99
fi
