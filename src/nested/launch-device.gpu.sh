# shellcheck shell=bash disable=SC2154
# launch-device.gpu.sh - launch-device's cases in the GPU suite (make test-gpu): every part, the
# pending-launch pool, 10000 tail launches, the tail order, device graphs, the output files, --profile.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin launch-device; then
    b=$BIN/launch-device
    for p in device many latency device-graph; do
        expect "launch-device --quick --part $p" 0 "^verdict: PASS" "$b" --quick --part $p
    done
    expect "launch-device prints the pending-launch pool, sized to #SMs x K for part many" 0 \
        "^pending-launch pool: [0-9]+ launches \([0-9]+ pending at once at most: part many" "$b" --quick --part many
    # --quick: 1 warm-up + 3 timed runs of 10000 launches each.
    expect "launch-device: one thread, 10000 tail launches pending at once (beyond the default pool of 2048)" 0 \
        "CHECK device-one tail: every launched child ran, once, with its own argument: PASS \\(40000 of 40000 ran" "$b" --quick --part device --launches 10000
    expect "launch-device: a tail-launched child starts after its parent grid ended" 0 \
        "a tail-launched child starts after its parent grid ended: PASS" "$b" --quick --part latency
    expect "launch-device --launches 1: every part with one child per launching thread" 0 "^verdict: PASS" "$b" --quick --launches 1
    # Device graph launch: measured where the runtime accepts it, else SKIP with its error, never a crash.
    expect "launch-device --part device-graph: PASS, or SKIP with the runtime's error" 0 \
        "CHECK device-graph fire-and-forget: every launched child ran.*: PASS|SKIP device-graph fire-and-forget: .*failed: " \
        "$b" --quick --part device-graph
    expect "launch-device --json --csv" 0 "^verdict: PASS" "$b" --quick --json "$tmp/ld.json" --csv "$tmp/ld.csv"
    check "launch-device JSON: 11 rows (3 x 3 device, 2 device-graph)" \
        python3 tests/check_outputs.py report "$tmp/ld.json" --rows 11 --verdict PASS
    check "launch-device JSON: --quick takes 3 samples per value" \
        python3 tests/check_outputs.py json "$tmp/ld.json" --expect rows.1.values.call.n=3 \
        --expect rows.1.params.launches.value=100
    check "launch-device CSV: per-launch medians and verdicts" \
        python3 tests/check_outputs.py csv "$tmp/ld.csv" --rows 11 --columns variant,call_median_us,latency_median_us,verdict
    expect "launch-device --profile: one run per configuration" 0 "^verdict: PASS" "$b" --quick --profile --json "$tmp/ldp.json"
    check "launch-device under --profile: every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/ldp.json" --expect rows.1.values.call.n=1
fi
