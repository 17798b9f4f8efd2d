#!/usr/bin/env bash
# Run 241 (session 22): would the fused forward (256 positions, TF32 rows between 128-byte boundaries) serve KernelBench
# 74? Its 20 k-steps do not fit the kernel's register-held weights (12 in fp32); KernelBench 74 with 3 taps (kb74_k3,
# dev/python/probe_shapes.json, 12 k-steps) asks the question: register-A (shipped) against the fused kernel forced.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 80 --problems dev/python/probe_shapes.json --shapes kb74_k3 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,fused=CONVT1D_FWD_FUSED:1,fused_noline=CONVT1D_FWD_FUSED:1+CONVT1D_FUSED_LINE:0,fused128=CONVT1D_FWD_FUSED:1+CONVT1D_FUSED_BT:128" --out $R/ab_kb74k3.json > $R/ab_kb74k3.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-330 $R/ab_kb74k3.txt | tail -5
