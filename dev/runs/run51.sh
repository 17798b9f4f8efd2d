#!/usr/bin/env bash
# Run 51: RS tile A/B on the compute-bound vocoder layers (256x1 as shipped for C_out*s > 128 vs 128x2, which
# halves the weight bytes per multiply-add that stream from L2 every stage).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
T=CONVT1D_WGMMA_RS_TILE
timeout 200 python3 dev/python/ab_wgmma.py --shapes codec_dec_s8,codec_dec_s5,hifigan_up1,hifigan_up2,upsample_x8_bias --modes bf16,fp16,fp32 --variants "shipped,t128x2=$T:128x2,t128x1=$T:128x1,t256x1=$T:256x1" --budget-ms 30 --out $R/ab_tiles.json 2>&1 | tee $R/ab_tiles.txt | cut -c1-500
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes codec_dec_s8,hifigan_up1,hifigan_up2,upsample_x8_bias,hifigan_up3 --modes bf16,fp32 --variants "shipped,t128x2=$T:128x2,t256x1=$T:256x1,t64x2=$T:64x2" --budget-ms 30 --out $R/ab_tiles_bi.json 2>&1 | tee $R/ab_tiles_bi.txt | cut -c1-500
