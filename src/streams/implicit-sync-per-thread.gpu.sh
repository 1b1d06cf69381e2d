# shellcheck shell=bash disable=SC2154
# implicit-sync-per-thread.gpu.sh - implicit-sync-per-thread's cases in the GPU suite (make test-gpu):
# stream 0 and the stream-less calls on the per-thread stream, every claim at C = 1, 8 and 32.
# Sourced by tests/gpu.sh after tests/lib.sh: it uses their expect, check and need_bin,
# $BIN (the binaries) and $tmp (a scratch folder, removed at exit).
if need_bin implicit-sync-per-thread; then
    b=$BIN/implicit-sync-per-thread
    expect "implicit-sync-per-thread: stream 0 is the per-thread stream in this build" 0 \
        "CLAIM in the per-thread build, stream 0 is the per-thread default stream: PASS" "$b" --quick
    expect "implicit-sync-per-thread --connections 1,8,32: every claim passes at each C" 0 \
        "== sweep of CUDA_DEVICE_MAX_CONNECTIONS: 3 of 3 values merged" "$b" --quick --connections 1,8,32
fi
