#!/bin/bash
# session 31 call 3: the GPU suite at the session's last commit
cd "$(dirname "$0")/.."
make -j16 all >/dev/null 2>&1 || { echo build failed; exit 1; }
set -o pipefail
timeout 420 make test-gpu 2>&1 | tee $OUT/test-gpu.log | tail -3
