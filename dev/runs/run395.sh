#!/usr/bin/env bash
# Run 395 (session 39, H200): library 395 = 392 + the lean TF32 128x2 kernel (fragments a k-step ahead), taken on the
# H200 class (run 394: KernelBench 64 TF32 1.777 / 1.816 ms, grad_input 1.787 / 1.944); the 16-bit 128x2 lean trial
# removed (it spilled and lost). Tests: the lean test (both DRAM classes, picked and forced 128x2 tiles), the H200
# defaults, the TF32 register-A forward picks. Then, on KernelBench 64 with the new kernels, the tile and ping-pong
# choices again (rotated, 3 rounds): 64x2 lean tiles (x read twice) against the shipped 128x2, ping-pong on / off.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l395 && xz -dc .carry/libconvt1d_395.so.xz > /tmp/l395/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l395 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l395/libconvt1d.so
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_lean or dram_rich or (test_wgmma_forward and tf32 and (rs or rspp or rsdirect))" > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -6 | cut -c1-250; tail -1 $R/tests.txt)
sweep() { # name shapes modes variants [kind]
  timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes $2 --modes $3 --kind ${5:-fwd} \
    --variants $4 --out $R/sweep_$1.json > $R/sweep_$1.txt 2>&1; echo "sweep $1 exit $? ($SECONDS s)"
  grep -E "^kern" $R/sweep_$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
}
V=shipped,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,pp1=CONVT1D_WGMMA_RS_PP:1,pp0=CONVT1D_WGMMA_RS_PP:0,lean0=CONVT1D_WGMMA_RS_LEAN:0
sweep kb64 kernelbench_64 fp32,fp16,bf16 $V
sweep kb64_gi kernelbench_64 fp32,bf16 $V bwd_input
