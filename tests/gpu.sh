#!/usr/bin/env bash
# gpu.sh - the GPU suite: every experiment in --quick mode exits 0, plus the
# cases only a GPU can show (device-side launch errors, output files, C=1).
# The cases that span experiments are here; each experiment's own cases are in
# src/<family>/<experiment>.gpu.sh, beside its source, and are sourced below.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
export TEST_TIMEOUT=${TEST_TIMEOUT:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

list=$(experiments)
[ -n "$list" ] || { not_ok "experiment binaries exist in $BIN (run make all first)"; finish; exit 1; }
for e in $list; do
    expect "$e --quick exits 0" 0 "^verdict: PASS" "$BIN/$e" --quick
done

# Tools that inject themselves must see the experiment run as it runs alone:
# compute-sanitizer maps libcuda before main, which once made every gated
# experiment exit before its first CUDA call. One gated experiment and one
# that is gated and launches from the device, each in its Sanitize: configuration.
if command -v "${SANITIZER:-compute-sanitizer}" >/dev/null 2>&1; then
    for e in histogram nested-reduce; do
        TEST_TIMEOUT=600 expect "memcheck runs $e as it runs alone, and finds nothing" 0 \
            "^sanitize $e memcheck: PASS" env SANITIZE_TOOLS=memcheck bash experiments/sanitize.sh "$BIN/$e"
    done
else
    skip "memcheck runs histogram and nested-reduce as they run alone" "compute-sanitizer is not on PATH"
fi

# Each experiment's own cases, in a fixed order (the order they ran in when they
# were all in this file, so that case numbers stay comparable between runs).
# A listed file that is missing fails a case instead of vanishing; a file not
# listed here yet runs after these, in path order.
experiment_cases="
    streams/false-dependency
    nested/nested-hello
    nested/launch-host
    nested/launch-device
    nested/nested-reduce
    nested/nested-race
    nested/cdp-pending
    nested/cdp-depth
    nested/cdp-pool-memory
    streams/default-stream
    streams/default-stream-per-thread
    streams/implicit-sync
    streams/implicit-sync-per-thread
    streams/stream-events
    streams/event-programs
    streams/event-cost
    streams/event-timing
    omp/omp-streams
    patterns/histogram
    patterns/scan
    patterns/scan-cdp
    patterns/dot-lock
    patterns/lock-contention
    patterns/warp-lock
    patterns/hash-table
    patterns/hash-probing
    streams/hyperq
    streams/queue-map
    streams/queue-dispatch
    streams/priorities
    streams/copy-overlap
    streams/module-loading
    streams/callbacks
    streams/host-overlap
"
listed=" "
for e in $experiment_cases; do
    listed+="$e "
    # shellcheck source=/dev/null
    need_file "src/$e.gpu.sh" "the GPU suite" && . "src/$e.gpu.sh"
done
for f in src/*/*.gpu.sh; do
    e=${f#src/}
    e=${e%.gpu.sh}
    if [ -f "$f" ] && [[ $listed != *" $e "* ]]; then
        # shellcheck source=/dev/null
        . "$f"
    fi
done
finish
