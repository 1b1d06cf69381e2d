#!/usr/bin/env bash
# connections-sweep.sh - false-dependency once per CUDA_DEVICE_MAX_CONNECTIONS
# value, in one table. The driver reads the variable once per process, so
# every C needs its own run.
#
#   experiments/connections-sweep.sh [false-dependency options...]
#   make sweep-connections ARGS="--streams 32"
# Environment: CONNECTIONS="1 2 4 8 16 32" (the values), SWEEP_CSV=file (all
# rows in one CSV), BUILD=build. Exits 1 if any run failed a check or claim.
set -u
cd "$(dirname "$0")/.."
bin=${BUILD:-build}/bin/false-dependency
[ -x "$bin" ] || { echo "error: $bin not built (make all)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

status=0
passed=0
runs=0
for c in ${CONNECTIONS:-1 2 4 8 16 32}; do
    runs=$((runs + 1))
    "$bin" --connections "$c" --csv "$tmp/c$c.csv" "$@" >"$tmp/c$c.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
    else
        status=1
        [ $rc -eq 1 ] || status=$rc
        echo "C=$c: exit $rc" >&2
        grep -E "^(CLAIM|CHECK).*FAIL|^error|^CUDA error|^no CUDA" "$tmp/c$c.log" >&2
        [ $rc -eq 77 ] && break
    fi
    [ $runs -eq 1 ] && grep -m1 "^device " "$tmp/c$c.log"
    [ $runs -eq 1 ] && grep -m1 "^span cost" "$tmp/c$c.log"
done

# One table: the header of the first run, then every run's rows, re-aligned.
align() {
    awk -F'|' '{
        for (i = 2; i < NF; i++) { c = $i; gsub(/^ +| +$/, "", c); cell[NR, i] = c; if (length(c) > w[i]) w[i] = length(c) }
        nf = NF; rows = NR
    } END {
        for (r = 1; r <= rows; r++) {
            line = ""
            for (i = 2; i < nf; i++) {
                c = cell[r, i]
                if (c ~ /^-+$/) { s = ""; for (k = 0; k < w[i] + 2; k++) s = s "-"; line = line "|" s }
                else if (c ~ /^[-+0-9.]+$/) line = line "| " sprintf("%" w[i] "s", c) " "
                else line = line "| " sprintf("%-" w[i] "s", c) " "
            }
            print line "|"
        }
    }'
}
first=$(ls "$tmp"/c*.log 2>/dev/null | head -n 1)
if [ -n "$first" ]; then
    echo
    {
        grep -m1 "^| order" "$first"
        grep -m1 "^|--" "$first"
        for c in ${CONNECTIONS:-1 2 4 8 16 32}; do
            [ -f "$tmp/c$c.log" ] && grep -E "^\| (depth|breadth) " "$tmp/c$c.log"
        done
    } | align
fi
if [ -n "${SWEEP_CSV:-}" ]; then
    : >"$SWEEP_CSV"
    for c in ${CONNECTIONS:-1 2 4 8 16 32}; do
        [ -f "$tmp/c$c.csv" ] || continue
        if [ -s "$SWEEP_CSV" ]; then tail -n +2 "$tmp/c$c.csv" >>"$SWEEP_CSV"; else cat "$tmp/c$c.csv" >>"$SWEEP_CSV"; fi
    done
    echo "csv: $SWEEP_CSV"
fi
echo "sweep: $passed of $runs runs passed every check and claim"
exit $status
