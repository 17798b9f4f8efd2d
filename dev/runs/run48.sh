#!/usr/bin/env bash
# Run 48: tile x layout A/B for the register-A forward on KernelBench 64/74 (resident weights + staged
# epilogue need smaller tiles to fit), the same for KernelBench 64's stride-1 grad_input, and a fresh ncu
# SASS profile of KernelBench 64 bf16 as shipped (after run 47's changes).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
T=CONVT1D_WGMMA_RS_TILE; W=CONVT1D_WGMMA_RS_WRES; E=CONVT1D_WGMMA_RS_EPI
V="shipped,t128x1w=$T:128x1+$W:1,t64x1w=$T:64x1+$W:1,t64x2w=$T:64x2+$W:1,t128x1=$T:128x1,t64x2=$T:64x2,t256x1=$T:256x1"
timeout 150 python3 dev/python/ab_wgmma.py --shapes kernelbench_64 --modes fp32,bf16,fp16,fp32_strict --variants $V --budget-ms 30 --out $R/ab_kb64.json 2>&1 | tee $R/ab_kb64.txt | cut -c1-600
timeout 80 python3 dev/python/ab_wgmma.py --shapes kernelbench_74 --modes fp32,fp32_strict --variants "shipped,t64x1w=$T:64x1+$W:1,t64x1=$T:64x1+$W:0,t64x2d=$E:direct" --budget-ms 30 --out $R/ab_kb74.json 2>&1 | tee $R/ab_kb74.txt | cut -c1-600
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64 --modes fp32,bf16 --variants $V --budget-ms 30 --out $R/ab_kb64_bi.json 2>&1 | tee $R/ab_kb64_bi.txt | cut -c1-600
timeout 100 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full -f -o $R/ncu_kb64_bf16 python3 dev/python/profile_case.py kernelbench_64 fwd bf16 > $R/ncu.log 2>&1; echo "ncu exit $?"
ncu -i $R/ncu_kb64_bf16.ncu-rep --page details > $R/ncu_kb64_bf16.txt 2>&1
ncu -i $R/ncu_kb64_bf16.ncu-rep --page source --csv --print-source sass > $R/sass_kb64_bf16.csv 2>&1
rm -f $R/ncu_kb64_bf16.ncu-rep
grep -E "Duration|DRAM Throughput|Issue Slots|Executed Instructions  " $R/ncu_kb64_bf16.txt
