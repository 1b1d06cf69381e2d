# lib.sh - shared helpers of the shell test suites: one "ok"/"not ok" line per
# case, and a final "N passed, M failed" from finish.
pass=0
fail=0
BIN=${BUILD:-build}/bin

ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $1"; }
not_ok() {
    fail=$((fail + 1))
    echo "not ok $((pass + fail)) - $1"
    [ -n "${2:-}" ] && printf '%s\n' "$2" | head -n 12 | sed 's/^/#   /'
    return 0
}

# expect NAME CODE PATTERN CMD...: CMD exits with CODE and its output (stdout
# and stderr) matches the extended regex PATTERN (empty: anything).
expect() {
    local name=$1 code=$2 pattern=$3 out rc
    shift 3
    out=$(timeout "${TEST_TIMEOUT:-120}" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$code" ]; then
        not_ok "$name" "exit $rc, expected $code; output: $(printf '%s' "$out" | tail -n 8)"
    elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$out"; then
        not_ok "$name" "output does not match /$pattern/: $(printf '%s' "$out" | tail -n 8)"
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
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

experiments() { for b in "$BIN"/*; do [ -x "$b" ] && basename "$b"; done; }
