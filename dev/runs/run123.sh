#!/usr/bin/env bash
# Run 123 (session 13): PAIRS A/B again with the order interleaved (run 121 timed the shipped variant first each time, and
# the first variant of a KernelBench 64 process has run faster before: run 49; the suite bench of run 122 showed no gain):
# nopairs, pairs, nopairs, pairs in one process, KernelBench 64 forward and grad_input, fp16 and bf16.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
V=nopairs=CONVT1D_WGMMA_RS_PAIRS:0,pairs=CONVT1D_WGMMA_RS_PAIRS:1,nopairs2=CONVT1D_WGMMA_RS_PAIRS:0,pairs2=CONVT1D_WGMMA_RS_PAIRS:1
timeout 150 python3 dev/python/ab_wgmma.py --shapes kernelbench_64 --modes fp16,bf16 --variants $V --out $R/ab_fwd64.json 2>&1 | tail -2
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64 --modes fp16,bf16 --variants $V --out $R/ab_bi64.json 2>&1 | tail -2
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader | tee $R/gpu.txt
