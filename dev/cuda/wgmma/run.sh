#!/bin/bash
# One device call: build (or use the carried build/wgmma/wgmma_fwd), check the SASS for HGMMA and
# local memory, run the wgmma prototype's correctness trials and timings (with the product kernel
# convt1d_fwd_tc_cfg(-1) on the same buffers), print PASS/FAIL counts and a timing table.
# Usage on the device machine (repo root): bash dev/cuda/wgmma/run.sh [check|bench|all]
set -u
cd "$(dirname "$0")/../../.."
OUT=${OUT:-/tmp/wgmma_out}
mkdir -p "$OUT"
WHAT=${1:-all}
BIN=build/wgmma/wgmma_fwd
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader
if ! "$BIN" probe >/dev/null 2>&1; then
    # Product sources: the HEAD snapshot carried in build/wgmma/head when present, else the working tree.
    SRC=.
    [ -d build/wgmma/head/src ] && SRC=build/wgmma/head
    echo "building here against $SRC"
    mkdir -p build/wgmma
    nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -I$SRC/include -I$SRC/src/core -I$SRC/src/cuda \
        dev/cuda/wgmma/wgmma_fwd.cu $SRC/src/cuda/fwd_tc.cu $SRC/src/core/params.c $SRC/src/core/env.c -o "$BIN" || exit 1
fi
[ -f build/wgmma/head/COMMIT ] && echo "product kernel sources: commit $(cat build/wgmma/head/COMMIT)"
if command -v cuobjdump >/dev/null; then
    cuobjdump -sass "$BIN" > "$OUT/sass.txt" 2>/dev/null
    echo "SASS (whole binary): $(grep -cE 'HGMMA' "$OUT/sass.txt") HGMMA lines; kinds:"
    grep -oE "HGMMA\.[0-9A-Za-z.]+" "$OUT/sass.txt" | sort | uniq -c | head -8
    echo "local-memory instructions in wg_fwd_kernel / pack: $(awk '/Function : .*wg_fwd_kernel|Function : .*pack_kernel/{f=1} /Function : /{if($0!~/wg_fwd_kernel|pack_kernel/)f=0} f&&/\<(LDL|STL)\>/' "$OUT/sass.txt" | wc -l)"
    rm -f "$OUT/sass.txt"
else
    echo "cuobjdump not found: SASS not checked"
fi
: > "$OUT/wgmma_fwd.txt"
# checks first, in their own process with a short limit: a hang or fault there cannot eat the timing run
if [ "$WHAT" = all ] || [ "$WHAT" = check ]; then
    timeout 45 "$BIN" check >> "$OUT/wgmma_fwd.txt" 2>&1
    rc=$?
    echo "wgmma_fwd check exit $rc"
    [ $rc -ge 2 ] && { echo "check phase broke (rc $rc): timing skipped"; WHAT=none; }
fi
if [ "$WHAT" = all ] || [ "$WHAT" = bench ]; then
    timeout 80 "$BIN" bench >> "$OUT/wgmma_fwd.txt" 2>&1
    echo "wgmma_fwd bench exit $?"
fi
grep -E "CALIB|FAIL|ERR|CUDA ERROR|NS:" "$OUT/wgmma_fwd.txt" | head -30
grep -E "^(CHECK|COPY|TOTAL|device|DIAG)" "$OUT/wgmma_fwd.txt"
echo
echo "timing (median of 25, CUDA events; ours = weight pack + kernel; * = auto pick):"
grep "^TIME," "$OUT/wgmma_fwd.txt" | awk -F, '{printf "%-11s %-5s %-30s %9s ms %8s TFLOP/s %8s GB/s  %s\n", $2, $3, $4, $5, $6, $7, $8}'
