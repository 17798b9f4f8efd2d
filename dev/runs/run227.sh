#!/usr/bin/env bash
# Run 227 (session 21): codec_dec_s5's register-A forward tiles. At stride 5 a 256-row tile holds 51 whole channels
# (255 rows), so C_out 256 takes 6 row tiles, the sixth with one channel (1536 MMA rows for 1280), and its staged
# tile does not fit beside two stages (direct stores, one 2-byte element per store, 10 bytes apart). 128-row tiles:
# 25 channels, 11 row tiles (1408 rows), and their staged tile fits. A/B in one process.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes codec_dec_s5 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t128x2_direct=CONVT1D_WGMMA_RS_TILE:128x2+CONVT1D_WGMMA_RS_EPI:direct,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,t64x2=CONVT1D_WGMMA_RS_TILE:64x2" \
  --out $R/ab_s5.json > $R/ab_s5.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-420 $R/ab_s5.txt | tail -4
