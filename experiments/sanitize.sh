#!/usr/bin/env bash
# sanitize.sh - compute-sanitizer memcheck, racecheck and synccheck on one experiment.
#   experiments/sanitize.sh BINARY [experiment options...]
# Without options, the experiment runs in its tool-sized configuration: the
# " * Sanitize: ..." line of its header comment, or for a build variant its
# NAME.sanitize line in the Makefile (every kernel and every variant once, on
# small inputs), or --quick --skip-timing-claims where it has none. (make
# sanitize-NAME reads the same lines and passes them as options.)
# SANITIZE_TOOLS picks tools (default: memcheck racecheck synccheck).
# A tool that reports an error fails the run. A tool that says it cannot check
# the binary (racecheck and CUDA Dynamic Parallelism) is reported as NOT
# SUPPORTED with the tool's own words: it is not counted as a pass.
set -u
cd "$(dirname "$0")/.."
bin=$1
shift
tool_cmd=${SANITIZER:-compute-sanitizer}
command -v "$tool_cmd" >/dev/null 2>&1 || { echo "error: compute-sanitizer not found ('$tool_cmd')" >&2; exit 2; }
name=$(basename "$bin")
if [ $# -eq 0 ]; then
    src=$(ls src/*/"$name".cu src/*/"$name".c 2>/dev/null | head -n 1)
    if [ -n "$src" ]; then
        line=$(sed -n 's/^ \* Sanitize: *//p' "$src" | head -n 1)
    else
        line=$(sed -n "s/^$name\.sanitize *:= *//p" Makefile | head -n 1)
    fi
    # shellcheck disable=SC2086 # the header line is a list of options
    set -- ${line:---quick --skip-timing-claims}
fi
status=0
for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    log=$(mktemp)
    echo "== $tool_cmd --tool $tool ${extra[*]} $bin $*"
    started=$(date +%s)
    "$tool_cmd" --tool "$tool" "${extra[@]}" --error-exitcode 1 "$bin" "$@" >"$log" 2>&1
    rc=$?
    grep -E "^=========|^verdict|^CLAIM.*FAIL|^CHECK.*FAIL|^CUDA error" "$log" | grep -v "^========= *$"
    unsupported=$(grep -m1 "is not supported by the selected tool" "$log" | sed 's/^========= *//')
    # What the tool reported beyond its banner, its refusal and its summaries:
    # any such line is a finding, so it can never be classed as unsupported.
    findings=$(grep "^=========" "$log" | grep -vE "^========= *$|COMPUTE-SANITIZER|SUMMARY|is not supported by the selected tool" | head -n 5)
    seconds=$(( $(date +%s) - started ))
    if [ $rc -eq 0 ]; then
        echo "sanitize $name $tool: PASS (${seconds} s)"
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
