#!/usr/bin/env bash
# Run 256 (session 24): KernelBench 74's forward traffic in the register-A kernel's structure without its math
# (dev/cuda/store_probe74.cu): does a second staged buffer (the copies of tile t draining during tile t + 1), paid
# for with fewer or smaller input stages, bring the data movement from the shipped 81% of the copy toward 89%?
set -u
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/sp74 dev/cuda/store_probe74.cu && timeout 200 /tmp/sp74 | tee $R/store_probe74.txt
echo "probe exit $? ($SECONDS s)"
