#!/usr/bin/env bash
# Run 398 (session 39, H200): run 397 read the second consumer warpgroup started 2 us late (CONVT1D_WGMMA_RS_SKEW=2000)
# ahead of shipped in all four TF32 rows (1-6%), and resident weights ahead on KernelBench 74's grad_input (0.749 /
# 0.814), inside this card's spread. Rechecked with 5 rounds, rotated in one process, skew 1000 / 2000 / 4000 ns, and on
# 16-bit too. Library 396 (defaults = library 395's kernels).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l396 && xz -dc .carry/libconvt1d_396.so.xz > /tmp/l396/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l396 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l396/libconvt1d.so
sweep() { # name shapes modes variants [kind]
  timeout 170 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --shapes $2 --modes $3 --kind ${5:-fwd} \
    --variants $4 --out $R/sweep_$1.json > $R/sweep_$1.txt 2>&1; echo "sweep $1 exit $? ($SECONDS s)"
  grep -E "^kern" $R/sweep_$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-400
}
V=shipped,skew1k=CONVT1D_WGMMA_RS_SKEW:1000,skew2k=CONVT1D_WGMMA_RS_SKEW:2000,skew4k=CONVT1D_WGMMA_RS_SKEW:4000
sweep fwd kernelbench_74,kernelbench_64 fp32,bf16 $V
sweep gi kernelbench_74,kernelbench_64 fp32 $V,wres1=CONVT1D_WGMMA_RS_WRES:1 bwd_input
