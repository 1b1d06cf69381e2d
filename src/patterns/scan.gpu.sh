# shellcheck shell=bash disable=SC2154
# scan.gpu.sh - scan's cases in the GPU suite (make test-gpu):
# every variant, type and kind from n = 1 to 2^26, the launches per level, the SKIPs, the output
# files, --profile. hierarchical-cdp's cases are in scan-cdp.gpu.sh.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin scan; then
    b=$BIN/scan
    # Done means: every variant exact (int32) or within tolerance (float) at 1, 3, 1000, 2^20 + 7 and 2^26;
    # 4096 and 4097 are one whole tile and one tile plus a partial one.
    for n in 1 3 1000 4096 4097 1048583; do
        expect "scan --quick --n $n: every variant, type and kind matches the CPU" 0 "^verdict: PASS" "$b" --quick --n $n
    done
    # Three samples judge no speed: the claims at 2^28 are made by the full run in the README.
    expect "scan at 2^26: every variant, type and kind matches the CPU" 0 "^verdict: PASS" \
        "$b" --quick --n 67108864 --skip-timing-claims
    expect "scan: int32 wraps exactly (every check is exact on int32)" 0 \
        "^CHECK decoupled-lookback int32 exclusive matches the CPU exactly: PASS" "$b" --quick --type int
    expect "scan: floats within the n-scaled tolerance" 0 \
        "^CHECK decoupled-lookback float inclusive matches the CPU within [0-9.e+-]+: PASS" "$b" --quick --type float
    expect "scan --block 32: five levels of kogge-stone sums, eleven launches" 0 \
        "^CHECK kogge-stone: 11 host and 0 device launches, 11 and 0 predicted: PASS" \
        "$b" --quick --n 67108864 --block 32 --type int --kind inclusive --variant kogge-stone --skip-timing-claims
    expect "scan --block 32: four levels of brent-kung sums, nine launches" 0 \
        "^CHECK brent-kung: 9 host and 0 device launches, 9 and 0 predicted: PASS" \
        "$b" --quick --n 67108864 --block 32 --type int --kind inclusive --variant brent-kung --skip-timing-claims
    expect "scan --block 1024 at an odd size (two elements per brent-kung thread, partial last section)" 0 "^verdict: PASS" \
        "$b" --quick --n 100003 --block 1024 --variant kogge-stone,brent-kung
    expect "scan hierarchical at 2^28: 2 levels of tile sums, 5 launches" 0 \
        "^CHECK hierarchical: 5 host and 0 device launches, 5 and 0 predicted: PASS" \
        "$b" --quick --n 268435456 --type int --kind inclusive --variant hierarchical --skip-timing-claims
    expect "scan --quick: the speed claims are SKIP below twice the L2, with the reason" 0 \
        "^CLAIM decoupled-lookback int32 inclusive is at least 0\.9x as fast as cub \(median, L2 flushed\): SKIP \(.*less than twice the L2" \
        "$b" --quick --type int --kind inclusive
    expect "scan without cub: the claims are SKIP, not dropped" 0 \
        "^CLAIM hierarchical int32 inclusive is at least 0\.6x as fast as cub .*: SKIP \(n/a: cub is not in --variant" \
        "$b" --quick --type int --kind inclusive --variant hierarchical,decoupled-lookback
    expect "scan --json --csv" 0 "^verdict: PASS" "$b" --quick --type int --kind inclusive --json "$tmp/scan.json" --csv "$tmp/scan.csv"
    check "scan JSON: six variants, every check PASS and every claim PASS or SKIP" \
        python3 tests/check_outputs.py report "$tmp/scan.json" --rows 6 --verdict PASS
    check "scan JSON: launches as derived from the levels (kogge-stone 5, brent-kung 3, hierarchical 3, lookback 1)" \
        python3 tests/check_outputs.py json "$tmp/scan.json" --expect rows.1.values.launches_host.value=5 \
        --expect rows.2.values.launches_host.value=3 --expect rows.3.values.launches_host.value=3 \
        --expect rows.4.values.launches_host.value=1 --expect rows.4.values.launches_device.value=0
    # cub's scan is its tile-state init kernel, then the scan kernel (cub/device/dispatch/dispatch_scan.cuh);
    # counted from a stream capture, so this line breaks if a CUB release changes that.
    check "scan JSON: cub launches two kernels (a capture of one call)" \
        python3 tests/check_outputs.py json "$tmp/scan.json" --expect rows.5.values.launches_host.value=2
    check "scan CSV: six rows with launches, times, bandwidth and the ratio to cub" \
        python3 tests/check_outputs.py csv "$tmp/scan.csv" --rows 6 \
        --columns variant,type,kind,n,tile,traffic,launches_host,launches_device,time_median_us,speed_vs_cub_x,verdict
    expect "scan --profile: one run per configuration" 0 "^verdict: PASS" \
        "$b" --quick --profile --type int --kind inclusive --json "$tmp/scanp.json"
    check "under --profile every statistic has one sample" \
        python3 tests/check_outputs.py json "$tmp/scanp.json" --expect rows.4.values.time.n=1
    # Optional, a full-size run (about a minute): the Done means' speed claims.
    # expect "scan at 2^28 int32: decoupled-lookback >= 0.9x cub and hierarchical >= 0.6x cub" 0 "^verdict: PASS" \
    #     "$b" --type int --kind inclusive --variant hierarchical,decoupled-lookback,cub --repeat 20
    expect "scan --tile-order ticket: the ticketed look-back is exact too" 0 "^verdict: PASS" \
        "$b" --quick --variant decoupled-lookback --tile-order ticket
fi
