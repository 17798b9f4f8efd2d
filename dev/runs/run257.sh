#!/usr/bin/env bash
# Run 257 (session 24): store_probe74 set 2, around run 256's best layout (two staged buffers, two half-stages:
# 0.606 vs the shipped layout's 0.638 ms): read-ahead depth, L2 eviction hints on x loads and y stores, tile order.
set -u
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/sp74 dev/cuda/store_probe74.cu && timeout 200 /tmp/sp74 2 | tee $R/store_probe74_set2.txt
echo "probe exit $? ($SECONDS s)"
