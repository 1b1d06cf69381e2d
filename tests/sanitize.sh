#!/usr/bin/env bash
# sanitize.sh - compute-sanitizer memcheck, racecheck and synccheck on one experiment.
#   tests/sanitize.sh BINARY [experiment options...]
# A tool that reports an error fails the run. A tool that says it cannot check
# the binary (racecheck and CUDA Dynamic Parallelism) is reported as NOT
# SUPPORTED with the tool's own words: it is not counted as a pass.
set -u
bin=$1
shift
tool_cmd=${SANITIZER:-compute-sanitizer}
command -v "$tool_cmd" >/dev/null 2>&1 || { echo "error: compute-sanitizer not found ('$tool_cmd')" >&2; exit 2; }
name=$(basename "$bin")
status=0
for tool in memcheck racecheck synccheck; do
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    log=$(mktemp)
    echo "== $tool_cmd --tool $tool ${extra[*]} $bin $*"
    "$tool_cmd" --tool "$tool" "${extra[@]}" --error-exitcode 1 "$bin" "$@" >"$log" 2>&1
    rc=$?
    grep -E "^=========|^verdict|^CLAIM.*FAIL|^CHECK.*FAIL|^CUDA error" "$log" | grep -v "^========= *$"
    unsupported=$(grep -m1 "is not supported by the selected tool" "$log" | sed 's/^========= *//')
    # What the tool reported beyond its banner, its refusal and its summaries:
    # any such line is a finding, so it can never be classed as unsupported.
    findings=$(grep "^=========" "$log" | grep -vE "^========= *$|COMPUTE-SANITIZER|SUMMARY|is not supported by the selected tool" | head -n 5)
    if [ $rc -eq 0 ]; then
        echo "sanitize $name $tool: PASS"
    elif [ -n "$unsupported" ] && [ -z "$findings" ] && grep -q "^verdict: PASS" "$log"; then
        echo "sanitize $name $tool: NOT SUPPORTED (the tool says: $unsupported; it reported nothing else)"
    else
        echo "sanitize $name $tool: FAIL (exit $rc)"
        [ -n "$findings" ] && printf '%s\n' "$findings"
        status=1
    fi
    rm -f "$log"
done
exit $status
