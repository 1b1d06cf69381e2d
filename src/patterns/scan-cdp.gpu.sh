# shellcheck shell=bash disable=SC2154
# scan-cdp.gpu.sh - scan-cdp's cases in the GPU suite (make test-gpu): every variant, type and kind
# at sizes from one tile to three levels of sums, the device-side launches per level, the output files.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin scan-cdp; then
    b=$BIN/scan-cdp
    # 1 and 4096 are one tile (no device launch); 4097 one level of sums; 2^20 + 7 two levels.
    for n in 1 1000 4096 4097 1048583; do
        expect "scan-cdp --quick --n $n: every variant, type and kind matches the CPU" 0 "^verdict: PASS" "$b" --quick --n $n
    done
    expect "scan-cdp hierarchical-cdp: the pipeline tail-launches itself (2 device launches at 2^20 + 7)" 0 \
        "^CHECK hierarchical-cdp: 1 host and 2 device launches, 1 and 2 predicted: PASS" \
        "$b" --quick --type int --kind inclusive --variant hierarchical-cdp
    expect "scan-cdp hierarchical-cdp at 2^28: 2 levels of tile sums, 4 device launches" 0 \
        "^CHECK hierarchical-cdp: 1 host and 4 device launches, 1 and 4 predicted: PASS" \
        "$b" --quick --n 268435456 --type int --kind inclusive --variant hierarchical-cdp --skip-timing-claims
    expect "scan-cdp --json --csv" 0 "^verdict: PASS" \
        "$b" --quick --type int --kind exclusive --json "$tmp/scan-cdp.json" --csv "$tmp/scan-cdp.csv"
    check "scan-cdp JSON: three variants, every check PASS" \
        python3 tests/check_outputs.py report "$tmp/scan-cdp.json" --rows 3 --verdict PASS
    check "scan-cdp JSON: hierarchical 3 host launches, hierarchical-cdp 1 and 2 device, cub 2" \
        python3 tests/check_outputs.py json "$tmp/scan-cdp.json" --expect rows.0.values.launches_host.value=3 \
        --expect rows.1.values.launches_host.value=1 --expect rows.1.values.launches_device.value=2 \
        --expect rows.2.values.launches_host.value=2
    check "scan-cdp CSV: three rows, compared with hierarchical and with cub" \
        python3 tests/check_outputs.py csv "$tmp/scan-cdp.csv" --rows 3 \
        --columns variant,type,kind,n,tile,traffic,launches_host,launches_device,time_median_us,speed_vs_hierarchical_x,speed_vs_cub_x,verdict
fi
