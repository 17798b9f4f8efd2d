#!/usr/bin/env bash
# Run 230 (session 21): the strided grad_input's register-A tiles on the layers whose grad_input alone is below cuDNN
# (codec_dec_s5, hifigan_up1 in 16-bit): A/B in one process.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
timeout 200 python3 dev/python/ab_wgmma.py --kind bwd_input --budget-ms 80 --shapes codec_dec_s5,hifigan_up1 --modes fp32,bf16 \
  --variants "shipped,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,rs_off=CONVT1D_WGMMA_RS:0" \
  --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-420 $R/ab_bi.txt | tail -4
