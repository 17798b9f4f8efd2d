#!/usr/bin/env bash
# Run 432 (session 47): with codec_dec_s8's weights now read from L2 (tile groups), is 256x1 still its tile? Run 428's
# probe d1 (weights free) took codec_dec_s8 TF32 1.077 -> 0.950 ms and hifigan_up1 0.489 -> 0.440: the weights' refill
# is ~10%. A 128x2 tile (two warpgroups sharing 256 positions of 128 rows) reads half the weights per position that
# 256x1 (128 positions of 256 rows) does, for twice the input. Environment switch only, library 427, rotated in one
# process, 3 rounds. Before the call, on the host: bash dev/probes/build_probe.sh cur
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lcur && xz -dc .carry/libconvt1d_cur.so.xz > /tmp/lcur/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lcur/libconvt1d.so
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --kind fwd \
  --shapes codec_dec_s8,hifigan_up1,upsample_x8_bias --modes fp32,fp16,bf16 \
  --variants "shipped,t128x2=CONVT1D_WGMMA_RS_TILE:128x2" --out $R/tile.json > $R/tile.txt 2>&1
echo "tile exit $? ($SECONDS s)"; grep -E "cudnn" $R/tile.txt | sed 's/ *[0-9]* TF\/s//g' | cut -c1-200
