# shellcheck shell=bash disable=SC2154
# stream-events.gpu.sh - stream-events's cases in the GPU suite (make test-gpu):
# every part, the waits and the model, the random DAGs, the output files, --profile. (What an
# event costs and how well it times are event-cost's and event-timing's; random programs, event-programs'.)
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
# ("stream-events --quick exits 0" comes from the loop over every binary at the top of tests/gpu.sh.)
if need_bin stream-events; then
    b=$BIN/stream-events
    for p in fan-in fan-out dag; do
        expect "stream-events --quick --part $p" 0 "^verdict: PASS" "$b" --quick --part $p
    done
    expect "stream-events fan-in (the seed's pattern): the last stream waits for every other stream" 0 \
        "^CLAIM fan-in S=4: every wait holds: .*: PASS \(12 of 12 edge checks" "$b" --quick --part fan-in
    expect "stream-events fan-in: the first S-1 streams still overlap as the model says" 0 \
        "^CLAIM fan-in S=4: everything else overlaps: peak concurrency is the simulation's 3 kernels: PASS" \
        "$b" --quick --part fan-in
    expect "stream-events fan-out: one producer, three consumers side by side" 0 \
        "^CLAIM fan-out S=4: everything else overlaps: peak concurrency is the simulation's 3 kernels: PASS" \
        "$b" --quick --part fan-out
    expect "stream-events: the diamond's four edges hold, B and C side by side" 0 \
        "^CLAIM diamond: everything else overlaps: peak concurrency is the simulation's 2 kernels: PASS" \
        "$b" --quick --part dag
    expect "stream-events: 20 random DAGs, every dependency edge holds in every run" 0 \
        "^CLAIM 20 random DAGs: every dependency edge \(event waits and stream order\) holds in every run: PASS" \
        "$b" --quick --part dag
    expect "stream-events: 20 random DAGs, each makespan within 10% of the model" 0 \
        "^CLAIM 20 random DAGs: the makespan is within 10% of the simulation's in every DAG: PASS \(20 of 20 DAGs" \
        "$b" --quick --part dag
    expect "stream-events: another seed gives other DAGs, which pass too" 0 "^verdict: PASS" \
        "$b" --quick --part dag --seed 7 --dags 5
    # Ordering claims still count when timing claims are not enforced (as under compute-sanitizer).
    expect "stream-events --skip-timing-claims: edges still judged, makespans SKIP" 0 \
        "^CLAIM fan-in S=4: makespan matches the simulation: SKIP .*not enforced" \
        "$b" --quick --part fan-in --skip-timing-claims
    expect "stream-events --skip-timing-claims: the edge claim is still PASS" 0 \
        "^CLAIM fan-in S=4: every wait holds: .*: PASS" "$b" --quick --part fan-in --skip-timing-claims
    expect "stream-events --json, --csv, --trace (fan-in)" 0 "^trace: " \
        "$b" --quick --part fan-in --json "$tmp/se.json" --csv "$tmp/se.csv" --trace "$tmp/se.trace.json"
    check "stream-events JSON: the fan-in row, every claim PASS" \
        python3 tests/check_outputs.py report "$tmp/se.json" --rows 1 --verdict PASS --claims-verdict PASS
    check "stream-events CSV: one row with the model beside the measurement" \
        python3 tests/check_outputs.py csv "$tmp/se.csv" --rows 1 \
        --columns variant,edges,model_makespan_median_ms,makespan_median_ms,peak_concurrency_median_kernels,verdict
    check "stream-events trace: 16 kernels measured and 16 simulated on 4 named streams, SM of every measured block" \
        python3 tests/check_outputs.py trace "$tmp/se.trace.json" --events 32 --runs 2 \
        --tracks "stream 0,stream 1,stream 2,stream 3" --block-sms
    expect "stream-events --part dag --json" 0 "^verdict: PASS" "$b" --quick --part dag --json "$tmp/sed.json"
    check "stream-events JSON: the diamond, 20 DAGs and the row of claims over them" \
        python3 tests/check_outputs.py report "$tmp/sed.json" --rows 22 --verdict PASS --claims-verdict PASS
    check "stream-events JSON: the summary row judged 20 DAGs" \
        python3 tests/check_outputs.py json "$tmp/sed.json" --expect rows.21.params.dags.value=20 \
        --expect rows.21.variant="all random"
    expect "stream-events --profile: one run per configuration" 0 "^verdict: PASS" \
        "$b" --quick --profile --part fan-in --json "$tmp/sep.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/sep.json" --expect rows.0.values.makespan.n=1
    # Optional model checks: include them once they pass on the H200 (they test gl_sched.h's queue rules, not events).
    # expect "stream-events fan-in --streams 8 at C=8: the waits share queues; peak as the model says" 0 "^verdict: PASS" \
    #     "$b" --quick --part fan-in --streams 8 --connections 8
    # expect "stream-events --part dag at C=1: one queue, every wait holds back whatever is behind it" 0 "^verdict: PASS" \
    #     "$b" --quick --part dag --connections 1
fi
