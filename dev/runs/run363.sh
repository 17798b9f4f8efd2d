#!/usr/bin/env bash
# Run 363 (session 34): the rate at which L2 feeds shared memory by bulk copies (dev/cuda/l2_ceiling_probe.cu): is
# ~6 TB/s of L2 traffic, what KernelBench 64 TF32 and the TF32 vocoder layers move now, the ceiling?
set -u
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $R/gpu.txt
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/l2p dev/cuda/l2_ceiling_probe.cu || exit 1
timeout 120 /tmp/l2p | tee $R/l2_ceiling.txt
