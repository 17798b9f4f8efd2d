#!/bin/bash
# One device call: build the harness (or use the carried build/tc binary), check every variant on
# many shapes against float64, time each against cuDNN in the same run, print a short table.
# Usage on the device machine (repo root): bash dev/cuda/run.sh [check|bench|all]
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/convt1d_out}
mkdir -p "$OUT"
WHAT=${1:-all}
BIN=build/tc/fwd_tc_dev
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader
if ! "$BIN" probe >/dev/null 2>&1; then
    echo "building harness here"
    mkdir -p build/tc
    nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -Iinclude -Isrc/core -Isrc/cuda \
        dev/cuda/fwd_tc_dev.cu src/cuda/fwd_tc.cu src/core/params.c -o "$BIN" || exit 1
fi
cuobjdump -sass "$BIN" 2>/dev/null | grep -oE "HMMA\.[0-9A-Z.]+" | sort | uniq -c | head -5
cuobjdump -sass "$BIN" 2>/dev/null | grep -cE "\b(LDL|STL)\b" | sed 's/^/local-memory instructions: /'
"$BIN" "$WHAT" > "$OUT/harness.txt" 2>&1
echo "harness exit $?"
grep -E "FAIL|ERR|error" "$OUT/harness.txt" | head -20
PYTHONUNBUFFERED=1 python3 dev/cuda/bench_cudnn.py > "$OUT/cudnn.txt" 2>&1
echo "cudnn exit $?"; tail -3 "$OUT/cudnn.txt" | grep -v CUDNN
python3 dev/cuda/report.py "$OUT/harness.txt" "$OUT/cudnn.txt" | tee "$OUT/table.txt"
