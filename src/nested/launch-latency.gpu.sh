# shellcheck shell=bash disable=SC2154
# launch-latency.gpu.sh - launch-latency's cases in the GPU suite (make test-gpu):
# every part, the pending-launch pool, 10000 tail launches, the graph claims, the output files,
# --profile.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin launch-latency; then
    b=$BIN/launch-latency
    for p in host graph device many latency device-graph; do
        expect "launch-latency --quick --part $p" 0 "^verdict: PASS" "$b" --quick --part $p
    done
    expect "launch-latency prints the pending-launch pool, sized to #SMs x K for part many" 0 \
        "^pending-launch pool: [0-9]+ launches \([0-9]+ pending at once at most: part many" "$b" --quick --part many
    # --quick: 1 warm-up + 3 timed runs of 10000 launches each.
    expect "launch-latency: one thread, 10000 tail launches pending at once (beyond the default pool of 2048)" 0 \
        "CHECK device-one tail: every launched child ran, once, with its own argument: PASS \\(40000 of 40000 ran" "$b" --quick --part device --launches 10000
    expect "launch-latency: a tail-launched child starts after its parent grid ended" 0 \
        "a tail-launched child starts after its parent grid ended: PASS" "$b" --quick --part latency
    expect "launch-latency --part graph alone: the graph claim has no stream burst to compare with (SKIP)" 0 \
        "a graph node costs the device less than a back-to-back stream launch: SKIP \(n/a" "$b" --quick --part graph
    expect "launch-latency: the graph claim is judged against the stream burst" 0 \
        "a graph node costs the device less than a back-to-back stream launch: PASS" "$b" --quick --part all
    expect "launch-latency prints the published figures beside this run" 0 "graph node, us +1\.30 " "$b" --quick --part all
    # Device graph launch: measured where the runtime accepts it, else SKIP with its error, never a crash.
    expect "launch-latency --part device-graph: PASS, or SKIP with the runtime's error" 0 \
        "CHECK device-graph fire-and-forget: every launched child ran.*: PASS|SKIP device-graph fire-and-forget: .*failed: " \
        "$b" --quick --part device-graph
    expect "launch-latency --json --csv" 0 "^verdict: PASS" "$b" --quick --json "$tmp/ll.json" --csv "$tmp/ll.csv"
    check "launch-latency JSON: 14 rows (3 host, 3 x 3 device, 2 device-graph)" \
        python3 tests/check_outputs.py report "$tmp/ll.json" --rows 14 --verdict PASS
    check "launch-latency JSON: --quick takes 3 samples per value" \
        python3 tests/check_outputs.py json "$tmp/ll.json" --expect rows.1.values.device_per_launch.n=3 \
        --expect rows.1.params.launches.value=100
    check "launch-latency CSV: per-launch medians and verdicts" \
        python3 tests/check_outputs.py csv "$tmp/ll.csv" --rows 14 --columns variant,device_per_launch_median_us,latency_median_us,verdict
    expect "launch-latency --profile: one run per configuration" 0 "^verdict: PASS" "$b" --quick --profile --json "$tmp/llp.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/llp.json" --expect rows.1.values.device_per_launch.n=1
fi
