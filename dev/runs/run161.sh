#!/usr/bin/env bash
# Run 161 (session 16): KernelBench 64 16-bit forward on resident weights: the other tiles (128x1: 64 positions per
# warpgroup, one box per stage, more stages; 64x2), position pairs off, against the shipped 128x2; ABBA with repeats.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
W=CONVT1D_WGMMA_RS
timeout 150 python3 dev/python/ab_wgmma.py --shapes kernelbench_64 --modes fp16,bf16 --budget-ms 120 \
  --variants "shipped,t128x1=${W}_TILE:128x1+${W}_WRES:1,t64x2=${W}_TILE:64x2+${W}_WRES:1,nopairs=${W}_PAIRS:0,t128x1pp=${W}_TILE:128x1+${W}_WRES:1+${W}_PP:1,shipped2" \
  --out $R/ab_kb64_tiles.json > $R/ab.txt 2>&1; echo "ab exit $?"; cut -c1-600 $R/ab.txt | tail -2
