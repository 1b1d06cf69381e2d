# shellcheck shell=bash disable=SC2154
# event-programs.gpu.sh - event-programs's cases in the GPU suite (make test-gpu): random programs, at C=1,
# with --skip-timing-claims, and their JSON and trace (they were stream-events --part random until issue 17);
# the same for the copies population (issue 18), and its JSON and CSV.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
# ("event-programs --quick exits 0" comes from the loop over every binary at the top of tests/gpu.sh.)
if need_bin event-programs; then
    b=$BIN/event-programs
    expect "event-programs, quick: 4 programs, every claim PASS" 0 "^verdict: PASS \(claims: 12 passed, 0 failed, 0 skipped; checks: 4 passed" "$b" --quick --programs 4
    expect "event-programs at C=1" 0 "^verdict: PASS" "$b" --quick --programs 4 --connections 1
    expect "event-programs --json --trace" 0 "^trace: " "$b" --quick --programs 5 --json "$tmp/ep.json" --trace "$tmp/ep.trace.json"
    check "event-programs: the kind follows the seed (mod 5)" python3 tests/check_outputs.py json "$tmp/ep.json" --expect rows.0.variant=fan-out --expect rows.3.variant=legacy --expect rows.4.variant=fan-in --expect rows.3.params.seed.value=20261124
    check "event-programs trace: the legacy stream has its track" python3 tests/check_outputs.py trace "$tmp/ep.trace.json" --runs 10 --tracks "legacy stream,stream 0,stream 1"
    expect "event-programs --skip-timing-claims" 0 "^verdict: PASS \(claims: 4 passed, 0 failed, 8 skipped" "$b" --quick --programs 4 --skip-timing-claims
    # The copies population (a program whose second stream draws no kernel has no edges: its edge claim SKIPs).
    expect "event-programs --population copies, quick: 4 programs, no claim FAILs" 0 "^verdict: PASS \(claims: [0-9]+ passed, 0 failed, [0-9]+ skipped; checks: 4 passed" "$b" --quick --population copies --programs 4 --json "$tmp/epc.json" --csv "$tmp/epc.csv"
    check "event-programs copies JSON: table copies, program i from seed --seed + i" python3 tests/check_outputs.py json "$tmp/epc.json" --expect rows.0.table=copies --expect rows.0.variant=copies --expect rows.3.params.seed.value=20261124
    check "event-programs copies CSV: each program's copies, host functions and priorities" python3 tests/check_outputs.py csv "$tmp/epc.csv" --rows 4 --columns seed,copies,copy_mib,largest_mib,pageable,hostfns,priorities,blocking
    expect "event-programs --population copies at C=1" 0 "^verdict: PASS" "$b" --quick --population copies --programs 4 --connections 1
    expect "event-programs --population copies --skip-timing-claims" 0 "^verdict: PASS \(claims: [0-9]+ passed, 0 failed, (8|9) skipped" "$b" --quick --population copies --programs 4 --skip-timing-claims
fi
