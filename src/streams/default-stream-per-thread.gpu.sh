# shellcheck shell=bash disable=SC2154
# default-stream-per-thread.gpu.sh - default-stream-per-thread's cases in the GPU suite (make test-gpu):
# stream 0 as the per-thread stream: no barrier, the sweep over C, the trace.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin default-stream-per-thread; then
    b=$BIN/default-stream-per-thread
    expect "default-stream-per-thread: stream 0 is the per-thread stream in this build" 0 \
        "CLAIM in the per-thread build, stream 0 is the per-thread default stream: PASS" "$b" --quick --variant blocking
    expect "default-stream-per-thread blocking: kernel_3 on stream 0 is no barrier" 0 \
        "CLAIM blocking S=4: no barrier: .*: PASS" "$b" --quick --variant blocking
    expect "default-stream-per-thread --connections 1,8,32: every claim passes at each C" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 3 of 3 values merged" "$b" --quick --connections 1,8,32
    expect "default-stream-per-thread trace: kernel_3 on the per-thread stream's track" 0 "^trace: " \
        "$b" --quick --variant blocking --trace "$tmp/dspt.trace.json"
    check "default-stream-per-thread trace tracks" \
        python3 tests/check_outputs.py trace "$tmp/dspt.trace.json" --events 26 --runs 2 --tracks "stream 0,per-thread stream"
fi
