#!/usr/bin/env bash
# Run 397 (session 39, H200): the register-A switches again on the lean TF32 kernels (64x2 since run 392, 128x2 since
# run 394), which no sweep has seen: KernelBench 74 and 64 TF32, forward and grad_input, rotated in one process (3
# rounds). Library 396 (its defaults are library 395's kernels; the TF32 pairs trial stays off).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l396 && xz -dc .carry/libconvt1d_396.so.xz > /tmp/l396/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l396 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l396/libconvt1d.so
sweep() { # name shapes modes variants [kind]
  timeout 170 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes $2 --modes $3 --kind ${5:-fwd} \
    --variants $4 --out $R/sweep_$1.json > $R/sweep_$1.txt 2>&1; echo "sweep $1 exit $? ($SECONDS s)"
  grep -E "^kern" $R/sweep_$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-400
}
V=shipped,pp0=CONVT1D_WGMMA_RS_PP:0,pp1=CONVT1D_WGMMA_RS_PP:1,ppok1=CONVT1D_WGMMA_RS_PPO_K:1,wres0=CONVT1D_WGMMA_RS_WRES:0,wres1=CONVT1D_WGMMA_RS_WRES:1,skew=CONVT1D_WGMMA_RS_SKEW:2000
sweep kb74 kernelbench_74 fp32 $V,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t64x1=CONVT1D_WGMMA_RS_TILE:64x1
sweep kb74_gi kernelbench_74 fp32 $V,t128x2=CONVT1D_WGMMA_RS_TILE:128x2 bwd_input
sweep kb64 kernelbench_64 fp32 $V,t256x1=CONVT1D_WGMMA_RS_TILE:256x1
sweep kb64_gi kernelbench_64 fp32 $V bwd_input
