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
PRODUCT=-1,0,1,2,3,4,6,8,9,10,12
EXPERIMENTS=14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader
if ! "$BIN" probe >/dev/null 2>&1; then
    echo "building harness here"
    mkdir -p build/tc
    nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -Iinclude -Isrc/core -Isrc/cuda \
        -DCONVT1D_TC_ALL_CONFIGS dev/cuda/fwd_tc_dev.cu src/cuda/fwd_tc.cu src/core/params.c src/core/env.c -o "$BIN" || exit 1
fi
cuobjdump -sass "$BIN" 2>/dev/null | grep -oE "HMMA\.[0-9A-Z.]+" | sort | uniq -c | head -5
cuobjdump -sass "$BIN" 2>/dev/null | grep -cE "\b(LDL|STL)\b" | sed 's/^/local-memory instructions: /'
"$BIN" "$WHAT" "$PRODUCT" > "$OUT/harness.txt" 2>&1
echo "harness (product configs) exit $?"
timeout 170 "$BIN" "$WHAT" "$EXPERIMENTS" > "$OUT/harness_exp.txt" 2>&1
echo "harness (experiments) exit $?"
grep -hE "FAIL|ERR|error" "$OUT/harness.txt" "$OUT/harness_exp.txt" | head -20
PYTHONUNBUFFERED=1 python3 dev/cuda/bench_cudnn.py > "$OUT/cudnn.txt" 2>&1
echo "cudnn exit $?"
cat "$OUT/harness.txt" "$OUT/harness_exp.txt" > "$OUT/harness_all.txt"
python3 dev/cuda/report.py "$OUT/harness_all.txt" "$OUT/cudnn.txt" | tee "$OUT/table.txt"
