#!/usr/bin/env bash
# Run 233 (session 22; called twice, the second time with "probe" after the probe gained its tile orders: 233b): what the memory system gives KernelBench 79's traffic without the math
# (dev/cuda/store_probe79.cu, variants one change at a time), beside the library's forward and the copy /
# fill / sum ceilings of y (dev/python/probe_write_bw.py) in TF32 and bf16.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/sp dev/cuda/store_probe79.cu && /tmp/sp | tee $R/store_probe79.txt
[ "${2:-}" = probe ] && exit 0
for m in fp32 bf16; do timeout 60 python3 dev/python/probe_write_bw.py --mode $m 2>&1 | tee $R/probe_write_$m.txt; done
