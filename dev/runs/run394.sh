#!/usr/bin/env bash
# Run 394 (session 39, H200): library 394 = 392 + the lean kernel on 128x2 tiles: taken for TF32 (KernelBench 64 on the
# H200 class, fragments a k-step ahead as in the 64x2 lean kernel, run 392), and for 16-bit only with the trial switch
# CONVT1D_WGMMA_RS_LEAN128=1 (its lean kernel now loads a k-step ahead too; run 387 without: lost 5-7%). Lean tests
# (picked tile, forced 128x2, the trial switch) with the H200 defaults; rotated in one process (3 rounds): KernelBench 64
# TF32 forward and grad_input lean / full, 16-bit shipped / lean128 / full, KernelBench 74 as a control.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l394 && xz -dc .carry/libconvt1d_394.so.xz > /tmp/l394/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l394 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l394/libconvt1d.so
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_lean or dram_rich" > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -6 | cut -c1-250; tail -1 $R/tests.txt)
sweep() { # name shapes modes variants [kind]
  timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes $2 --modes $3 --kind ${5:-fwd} \
    --variants $4 --out $R/sweep_$1.json > $R/sweep_$1.txt 2>&1; echo "sweep $1 exit $? ($SECONDS s)"
  grep -E "^kern" $R/sweep_$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
}
sweep tf32 kernelbench_64,kernelbench_74 fp32 shipped,lean0=CONVT1D_WGMMA_RS_LEAN:0
sweep tf32_gi kernelbench_64,kernelbench_74 fp32 shipped,lean0=CONVT1D_WGMMA_RS_LEAN:0 bwd_input
sweep half kernelbench_64 fp16,bf16 shipped,lean128=CONVT1D_WGMMA_RS_LEAN128:1,lean0=CONVT1D_WGMMA_RS_LEAN:0
sweep half_gi kernelbench_64 bf16 shipped,lean128=CONVT1D_WGMMA_RS_LEAN128:1 bwd_input
