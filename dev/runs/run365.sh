#!/usr/bin/env bash
# Run 365 (session 34): codec_dec_s5 (stride 5: odd phases, no adjacent-phase pairs, so the direct stores go out one
# element at a time, 20 bytes apart in TF32) on 128x2 tiles with ordered ping-pong and the staged tile, which now fits
# beside two 49 KB stages (one input box per stage with ping-pong): run 227 found TF32's 128x2 staged tile did not fit
# without ping-pong (0.488 vs 0.467 ms). Environment switches only; Session 33's final library (.carry/libconvt1d_360.so.xz).
# Rotated ABBA in one process, then the 16-bit forms with ping-pong ordered in every type (PPO=1).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_360.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
S=CONVT1D_WGMMA_RS_TILE:128x2+CONVT1D_WGMMA_RS_PP:1+CONVT1D_WGMMA_RS_EPI:staged
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes codec_dec_s5 --modes fp32,fp16,bf16,fp32_strict \
  --variants shipped,pp_staged=$S,pp_staged_ppo=$S+CONVT1D_WGMMA_RS_PPO:1,pp_direct=CONVT1D_WGMMA_RS_TILE:128x2+CONVT1D_WGMMA_RS_PP:1+CONVT1D_WGMMA_RS_EPI:direct,t128x2=CONVT1D_WGMMA_RS_TILE:128x2 \
  --out $R/ab_s5.json > $R/ab_s5.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^codec" $R/ab_s5.txt | sed 's/ TF\/s//g'
