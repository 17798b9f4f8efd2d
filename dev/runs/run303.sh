#!/usr/bin/env bash
# Run 303 (session 27): SM clock and board power while the vocoder layers and KernelBench 64 run back to back, convt1d
# and cuDNN, per mode (dev/python/clock_probe.py): are the tensor-core-bound layers under the power limit?
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,power.max_limit --format=csv | tee $R/gpu.txt
timeout 200 python3 dev/python/clock_probe.py --shapes hifigan_up1,upsample_x8_bias,codec_dec_s8,kernelbench_64 \
  --modes fp16,bf16,fp32 2>&1 | tee $R/clock_probe.txt
