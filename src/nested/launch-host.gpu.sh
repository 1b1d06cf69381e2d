# shellcheck shell=bash disable=SC2154
# launch-host.gpu.sh - launch-host's cases in the GPU suite (make test-gpu): both parts, the graph
# claim with and without the stream burst, the published figures, the output files, --profile.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin launch-host; then
    b=$BIN/launch-host
    for p in host graph; do
        expect "launch-host --quick --part $p" 0 "^verdict: PASS" "$b" --quick --part $p
    done
    expect "launch-host --part graph alone: the graph claim has no stream burst to compare with (SKIP)" 0 \
        "a graph node costs the device less than a back-to-back stream launch: SKIP \(n/a" "$b" --quick --part graph
    expect "launch-host: the graph claim is judged against the stream burst" 0 \
        "a graph node costs the device less than a back-to-back stream launch: PASS" "$b" --quick --part all
    expect "launch-host prints the published figures beside this run" 0 "graph node, us +1\.30 " "$b" --quick --part all
    expect "launch-host --launches 1: one launch per burst and a graph of one node; the comparison is SKIP" 0 "^verdict: PASS \(claims: 0 passed, 0 failed, 1 skipped" "$b" --quick --launches 1
    expect "launch-host --json --csv" 0 "^verdict: PASS" "$b" --quick --json "$tmp/lh.json" --csv "$tmp/lh.csv"
    check "launch-host JSON: 3 rows (one launch, back to back, graph)" \
        python3 tests/check_outputs.py report "$tmp/lh.json" --rows 3 --verdict PASS
    check "launch-host JSON: --quick takes 3 samples per value" \
        python3 tests/check_outputs.py json "$tmp/lh.json" --expect rows.1.values.device_per_launch.n=3 \
        --expect rows.1.params.launches.value=100
    check "launch-host CSV: per-launch medians and verdicts" \
        python3 tests/check_outputs.py csv "$tmp/lh.csv" --rows 3 --columns variant,device_per_launch_median_us,latency_median_us,verdict
    expect "launch-host --profile: one run per configuration" 0 "^verdict: PASS" "$b" --quick --profile --json "$tmp/lhp.json"
    check "launch-host under --profile: every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/lhp.json" --expect rows.1.values.device_per_launch.n=1
fi
