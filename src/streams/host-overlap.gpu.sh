# shellcheck shell=bash disable=SC2154
# host-overlap.gpu.sh - host-overlap's cases in the GPU suite (make test-gpu): the counter and the five waits in
# the JSON (each way's schedule flag read back), the CPU-time claim on a longer wait, the counter's trace with its
# host calls, an odd size, one queue, --profile, and a --connections sweep whose runs start processes of their own.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
# ("host-overlap --quick exits 0" comes from the loop over every binary at the top of tests/gpu.sh.)
if need_bin host-overlap; then
    b=$BIN/host-overlap
    expect "host-overlap --quick --json: the counter and five ways of waiting" 0 "^verdict: PASS" \
        "$b" --quick --json "$tmp/ho.json"
    check "host-overlap JSON: the counter's row, then poll, spin, yield, blocking (flags read back), event-blocking" \
        python3 tests/check_outputs.py json "$tmp/ho.json" --expect rows.0.variant="textbook counter" \
        --expect rows.0.values.count.n=3 --expect rows.1.variant=poll --expect rows.2.params.schedule.value=spin \
        --expect rows.3.params.schedule.value=yield --expect rows.4.params.schedule.value=blocking \
        --expect rows.5.variant=event-blocking --expect rows.4.values.process_cpu.unit=%
    expect "host-overlap: blocking sync takes at most half the CPU time of spin (10 ms waits)" 0 \
        "CLAIM waits: blocking sync takes at most half the process CPU time of spin: PASS" \
        "$b" --quick --part waits --wait-us 10000
    expect "host-overlap --part counter at one queue, with --trace and --timeline" 0 "^timeline: counter" \
        "$b" --quick --part counter --connections 1 --trace "$tmp/ho.trace.json" --timeline
    check "host-overlap trace: the kernel and the six host calls, measured and simulated" \
        python3 tests/check_outputs.py trace "$tmp/ho.trace.json" --runs 2 --events 14 --tracks "counter,host"
    expect "host-overlap at an odd size: every element of c checked" 0 \
        "CHECK counter: c = a \+ b came back from the GPU: PASS \(all 1000003 elements match" \
        "$b" --quick --part counter --elements 1000003
    expect "host-overlap --profile: one run per configuration" 0 "^verdict: PASS" \
        "$b" --quick --profile --json "$tmp/hop.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/hop.json" --expect rows.0.values.wait.n=1 --expect rows.2.values.wait.n=1
    expect "host-overlap --connections 1,8 --part waits: each run starts its wait processes" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 2 of 2 values merged" "$b" --quick --part waits --connections 1,8
fi
