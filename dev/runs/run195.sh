#!/usr/bin/env bash
# Run 195 (session 19): with the pair stores, do the register-A tiles still rank as in run 51 on the stride-8
# forwards (256x1 past 1024 rows)? A/B of the tiles and ping-pong on upsample_x8, hifigan_up1, codec_dec_s8.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d_torch.so ] || bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1
timeout 200 python3 dev/python/ab_wgmma.py --kind fwd --shapes upsample_x8_bias,hifigan_up1,codec_dec_s8 --modes fp32,bf16 --budget-ms 25 \
  --variants "shipped,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t128x2pp=CONVT1D_WGMMA_RS_TILE:128x2+CONVT1D_WGMMA_RS_PP:1,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,staged=CONVT1D_WGMMA_RS_EPI:staged" --out $R/ab_tiles.json > $R/ab_tiles.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-400 $R/ab_tiles.txt | tail -6
