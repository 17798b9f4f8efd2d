#!/usr/bin/env bash
# Run 54: KernelBench 79 (stride 2, dilation 2: one phase has no taps) on the register-A kernel after this
# session's changes (rs_pays kept it off: 0.94 vs 0.81 ms in session 7), forward and grad_input; ncu SASS
# profile of KernelBench 64 bf16 as shipped now (ping-pong).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
S=CONVT1D_WGMMA_RS; T=CONVT1D_WGMMA_RS_TILE
timeout 100 python3 dev/python/ab_wgmma.py --shapes kernelbench_79,grouped_g4 --modes fp32,bf16,fp32_strict --variants "shipped,rs=$S:1,rs64x2=$S:1+$T:64x2,rs128x1=$S:1+$T:128x1,shipped2" --budget-ms 30 --out $R/ab_kb79.json 2>&1 | tee $R/ab_kb79.txt | cut -c1-600
timeout 80 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_79 --modes fp32,bf16,fp32_strict --variants "shipped,rs=$S:1,rs64x2=$S:1+$T:64x2,shipped2" --budget-ms 30 --out $R/ab_kb79_bi.json 2>&1 | tee $R/ab_kb79_bi.txt | cut -c1-600
timeout 100 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full -f -o $R/ncu_kb64_bf16 python3 dev/python/profile_case.py kernelbench_64 fwd bf16 > $R/ncu.log 2>&1; echo "ncu exit $?"
ncu -i $R/ncu_kb64_bf16.ncu-rep --page details > $R/ncu_kb64_bf16.txt 2>&1
ncu -i $R/ncu_kb64_bf16.ncu-rep --page source --csv --print-source sass > $R/sass_kb64_bf16.csv 2>&1
rm -f $R/ncu_kb64_bf16.ncu-rep
grep -E "Duration|DRAM Throughput|Issue Slots|Executed Instructions  |L2 Hit|Mem Busy|Max Bandwidth" $R/ncu_kb64_bf16.txt
