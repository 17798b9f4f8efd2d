#!/usr/bin/env bash
# Run 221 (session 21): KernelBench 79's traffic without convt1d (dev/python/bw_probe79.py): what a write-heavy kernel
# with odd, 4-byte aligned rows reaches on this card, by bytes per row per tile.
set -u
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 120 python3 dev/python/bw_probe79.py 2>&1 | tee $R/bw_probe79.txt
