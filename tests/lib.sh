# lib.sh - shared helpers of the shell test suites: one "ok"/"not ok" line per
# case, "ok N - NAME # SKIP WHY" for a case that cannot run here, and from
# finish a "K skipped" line (when any were) and a final "N passed, M failed".
pass=0
fail=0
skipped=0
BIN=${BUILD:-build}/bin
# A failed case's whole output is kept here (its tail is printed), so that a
# failure seen once can be read in full: the model's calibration line, every row.
FAIL_DIR=${BUILD:-build}/test-failures

ok() { pass=$((pass + 1)); echo "ok $((pass + fail + skipped)) - $1"; }
not_ok() {
    fail=$((fail + 1))
    echo "not ok $((pass + fail + skipped)) - $1"
    [ -n "${2:-}" ] && printf '%s\n' "$2" | head -n 12 | sed 's/^/#   /'
    return 0
}
# skip NAME WHY: a case that cannot run on this machine (TAP's "# SKIP"),
# counted as skipped, never as passed.
skip() {
    skipped=$((skipped + 1))
    echo "ok $((pass + fail + skipped)) - $1 # SKIP $2"
}

# need_bin NAME: true when the experiment binary $BIN/NAME exists; otherwise a
# failed case saying it is missing, so that its tests fail instead of vanishing.
need_bin() {
    [ -x "$BIN/$1" ] && return 0
    not_ok "$1: its tests need $BIN/$1, which is missing (run make all)"
    return 1
}

# need_file PATH WHAT: true when PATH exists; otherwise a failed case saying
# that WHAT needs it.
need_file() {
    [ -f "$1" ] && return 0
    not_ok "$2 needs $1, which is missing"
    return 1
}

# keep_output NAME CMD OUT: write a failed case's command and whole output to
# $FAIL_DIR and print "full output: PATH; " (nothing when it cannot be written).
keep_output() {
    local f
    f="$FAIL_DIR/$(printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_' | cut -c1-100).log"
    mkdir -p "$FAIL_DIR" 2>/dev/null && printf '$ %s\n%s\n' "$2" "$3" >"$f" 2>/dev/null && printf 'full output: %s; ' "$f"
}

# expect NAME CODE PATTERN CMD...: CMD exits with CODE and its output (stdout
# and stderr) matches the extended regex PATTERN (empty: anything).
expect() {
    local name=$1 code=$2 pattern=$3 out rc
    shift 3
    out=$(timeout "${TEST_TIMEOUT:-120}" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$code" ]; then
        not_ok "$name" "exit $rc, expected $code; $(keep_output "$name" "$*" "$out")output: $(printf '%s' "$out" | tail -n 8)"
    elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$out"; then
        not_ok "$name" "output does not match /$pattern/; $(keep_output "$name" "$*" "$out")output: $(printf '%s' "$out" | tail -n 8)"
    else
        ok "$name"
    fi
}

# check NAME CMD...: CMD exits 0.
check() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name" "$out"; fi
}

finish() {
    [ "$skipped" -eq 0 ] || echo "$skipped skipped"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

# The experiment binaries (replay is a tool, not an experiment: it takes a trace, not --quick).
experiments() { for b in "$BIN"/*; do [ -x "$b" ] && [ "$(basename "$b")" != replay ] && basename "$b"; done; }
