#!/usr/bin/env bash
# Run 231 (session 21): single_utterance_x8 (batch 1, L 861: 56 tiles of 256x1 for 132 SMs) on smaller register-A tiles
# that fill the GPU: A/B in one process (GPU time per call; the suite's latency rows time the Python call).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 60 --shapes single_utterance_x8,hifigan_up1 --modes fp32,fp16,bf16 \
  --variants "shipped,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,t64x1=CONVT1D_WGMMA_RS_TILE:64x1" \
  --out $R/ab_su.json > $R/ab_su.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-420 $R/ab_su.txt | tail -6
