#!/usr/bin/env bash
# Run 279 (session 25, final library): with the ldmatrix taps (run 274) the A fragments cost less, so the 128x2 register-A
# tile (more A loads per MMA than 256x1: run 254 had it 2-7% slower on upsample_x8 / hifigan_up1) may now pay on the
# large strided 16-bit layers. Rotated ABBA of the shipped 256x1 against 128x2, with and without ldmatrix.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes upsample_x8_bias,hifigan_up1,codec_dec_s8 --modes fp16,bf16 \
  --variants shipped,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t128x2noldm=CONVT1D_WGMMA_RS_TILE:128x2+CONVT1D_WGMMA_RS_LDM:0,noldm=CONVT1D_WGMMA_RS_LDM:0 \
  --out $R/ab_tile.json > $R/ab_tile.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^[a-z]" $R/ab_tile.txt | cut -c1-220
