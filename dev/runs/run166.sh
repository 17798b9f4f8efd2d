#!/usr/bin/env bash
# Run 166 (session 16): position pairs at dilation 3 (KernelBench 74 16-bit) now that the pairs' word test is one per
# tap (run 154, per load: pairs 0.475 vs 0.428 ms); ABBA with repeats.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
V="shipped,pairs=CONVT1D_WGMMA_RS_PAIRS:1,shipped2,pairs2=CONVT1D_WGMMA_RS_PAIRS:1"
timeout 60 python3 dev/python/ab_wgmma.py --shapes kernelbench_74 --modes fp16,bf16 --budget-ms 120 --variants "$V" \
  --out $R/ab_pairs74.json > $R/ab.txt 2>&1; echo "ab exit $?"; cut -c1-330 $R/ab.txt | tail -2
timeout 50 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_74 --modes bf16 --budget-ms 120 --variants "$V" \
  --out $R/ab_pairs74_bi.json > $R/ab_bi.txt 2>&1; echo "ab bi exit $?"; cut -c1-330 $R/ab_bi.txt | tail -1
