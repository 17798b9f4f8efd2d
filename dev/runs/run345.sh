#!/usr/bin/env bash
# Run 345 (session 32): where ordered ping-pong pays (run 344 on an H200: KernelBench 64 TF32 1.977 -> 1.931 ms,
# hifigan_up3 TF32 with ping-pong forced 1.213 -> 1.111, hifigan_up2 TF32 1.191 -> 1.216). The run-344 library;
# kernel + pack ABBA over the register-A layers with 128x2 / 64x2 tiles: shipped, ppo (CONVT1D_WGMMA_RS_PPO=1, the
# default ping-pong rule: stride-1 forwards), ppopp (ping-pong forced too: every MQ = 2 tile).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_344.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
timeout 280 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_64,hifigan_up3,hifigan_up4,grouped_g4,hifigan_up2 --modes fp32 \
  --variants shipped,ppo=CONVT1D_WGMMA_RS_PPO:1,ppopp=CONVT1D_WGMMA_RS_PPO:1+CONVT1D_WGMMA_RS_PP:1 --out $R/ab_ppo32.json > $R/ab_ppo32.txt 2>&1; echo "ab fp32 exit $? ($SECONDS s)"; grep -E "^(kern|hifi|grou|codec)" $R/ab_ppo32.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
timeout 250 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes hifigan_up3,hifigan_up4,grouped_g4,codec_dec_s5,kernelbench_74 --modes bf16,fp32_strict \
  --variants shipped,ppopp=CONVT1D_WGMMA_RS_PPO:1+CONVT1D_WGMMA_RS_PP:1 --out $R/ab_ppo16.json > $R/ab_ppo16.txt 2>&1; echo "ab bf16 exit $? ($SECONDS s)"; grep -E "^(kern|hifi|grou|codec)" $R/ab_ppo16.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
