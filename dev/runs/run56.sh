#!/usr/bin/env bash
# Run 56: stride-1 grad_input in 16-bit on the RS kernel with the producer's 8-byte cp.async staging (grad_y
# rows of 65538 / 131084 16-bit values are no 16-byte multiple, so no TMA): auto vs off (shipped: off in 16-bit).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
C=CONVT1D_WGMMA_RS_CPASYNC
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64,kernelbench_74,kernelbench_74_small,kernelbench_64_small --modes bf16,fp16,fp32 --variants "shipped,auto=$C:auto,always=$C:1,auto_nopp=$C:auto+CONVT1D_WGMMA_RS_PP:0,shipped2" --budget-ms 30 --out $R/ab_bi16.json 2>&1 | tee $R/ab_bi16.txt | cut -c1-500
