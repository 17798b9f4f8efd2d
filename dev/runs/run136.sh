#!/usr/bin/env bash
# Run 136 (session 14): grad_input kernel choice where single gradients still lose to cuDNN (grouped_g4, codec_dec_s5,
# hifigan_up1 bf16) and on upsample_x8, now that the SS path's planes transpose is a unit transpose: shipped against
# the SS wgmma path (CONVT1D_WGMMA_RS=0), the phase-plane path and the mma.sync path, shipped timed twice (slots 1, 5).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 280 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes grouped_g4,codec_dec_s5,hifigan_up1,upsample_x8_bias,codec_dec_s8 --modes bf16,fp32 \
  --variants shipped,ss=CONVT1D_WGMMA_RS:0,planes=CONVT1D_BWD_INPUT:planes,tc=CONVT1D_BWD_INPUT:tc,shipped2=CONVT1D_WGMMA_RS_SKEW:0 \
  --out $R/ab_bi_paths.json 2>&1 | tail -12
