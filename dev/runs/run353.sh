#!/usr/bin/env bash
# Run 353 (session 33): knobs only, the shipped library (.carry/libconvt1d_350.so.xz). KernelBench 64 TF32 on 64-row
# tiles with the weights resident (98 KB: one row half per block, the input read twice through L2, no weight restaging
# per tile), with and without ping-pong / RX / staged output; KernelBench 64 16-bit with ping-pong over staged weights,
# 64-row tiles, staged output; upsample_x8 and hifigan_up1 on 128x2 tiles with ordered ping-pong. Rotated ABBA.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_350.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
ab() { # name shapes modes variants
  timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 50 --order rotate --shapes $2 --modes $3 --variants $4 \
    --out $R/ab_$1.json > $R/ab_$1.txt 2>&1; echo "ab $1 exit $? ($SECONDS s)"; grep -E "^(kern|hifi|upsa)" $R/ab_$1.txt | sed "s/, err [0-9.e+-]*//g; s/ TF\/s//g"
}
T=CONVT1D_WGMMA_RS_TILE
ab kb64tf32 kernelbench_64 fp32 shipped,t64=$T:64x2+CONVT1D_WGMMA_RS_WRES:1,t64pp0=$T:64x2+CONVT1D_WGMMA_RS_WRES:1+CONVT1D_WGMMA_RS_PP:0,t64rx0=$T:64x2+CONVT1D_WGMMA_RS_WRES:1+CONVT1D_WGMMA_RS_RX:0,t64dir=$T:64x2+CONVT1D_WGMMA_RS_WRES:1+CONVT1D_WGMMA_RS_EPI:direct
ab kb64h kernelbench_64 fp16,bf16 shipped,t64=$T:64x2,stg=CONVT1D_WGMMA_RS_EPI:staged,pp=CONVT1D_WGMMA_RS_PP:1+CONVT1D_WGMMA_RS_WRES:0+CONVT1D_WGMMA_RS_PPO:1
ab voc upsample_x8_bias,hifigan_up1 fp32,bf16 shipped,pp128=$T:128x2+CONVT1D_WGMMA_RS_PP:1+CONVT1D_WGMMA_RS_PPO:1
