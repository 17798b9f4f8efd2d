#!/usr/bin/env bash
# Run 239 (session 22, final library, same as run 238): the forward suite again (run 238 read KernelBench 64 fp16 at
# 1.126 ms against 0.988 in run 229, the library's code for it unchanged), and KernelBench 64's 16-bit rows in one
# process, ABBA, to see the spread.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 100 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample|hifigan_up1) " $R/bench_fwd.txt | cut -c1-110
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_64 --modes fp16,bf16 --variants "shipped,again=CONVT1D_FUSED_BT:256" --out $R/ab_kb64.json > $R/ab_kb64.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_kb64.txt | tail -3
