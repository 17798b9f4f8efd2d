#!/usr/bin/env bash
# Run 259 (session 24): store_probe74 set 3, KernelBench 74's traffic from registers (no shared memory, no pipeline),
# one block per tile or persistent, tiles of 128 / 256 / 512 / 1024 positions: what the 1 KB row pieces of the
# register-A kernel's tile allow when nothing else is in the way (run 258: the half-tile stages lost in the kernel,
# 0.693 vs 0.670 ms, though the probe had them 5% faster).
set -u
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/sp74 dev/cuda/store_probe74.cu && timeout 200 /tmp/sp74 3 | tee $R/store_probe74_set3.txt
echo "probe exit $? ($SECONDS s)"
