#!/usr/bin/env bash
# Run 210 (session 20): can KernelBench 64's TF32 forward (and its grad_input, the same kernel on grad_y) take the staged
# epilogue with a tile whose staged output fits beside two stages (128x1: 2 x 65 KB stages + 70 KB; 64x2: 2 x 58 KB +
# 68 KB)? A/B against the shipped 128x2 direct; stall reasons of upsample_x8 bf16 (vocoder lead).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
V="shipped,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,t128x1d=CONVT1D_WGMMA_RS_TILE:128x1+CONVT1D_WGMMA_RS_EPI:direct,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,t64x2d=CONVT1D_WGMMA_RS_TILE:64x2+CONVT1D_WGMMA_RS_EPI:direct"
timeout 100 python3 dev/python/ab_wgmma.py --kind fwd --shapes kernelbench_64 --modes fp32,fp32_strict --budget-ms 40 --variants "$V" --out $R/ab_64_fwd.json > $R/ab_64_fwd.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-300 $R/ab_64_fwd.txt | tail -2
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64 --modes fp32,fp32_strict --budget-ms 40 --variants "$V" --out $R/ab_64_bi.json > $R/ab_64_bi.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-300 $R/ab_64_bi.txt | tail -2
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
timeout 100 ncu --profile-from-start off -k regex:"fwd_wgmma" --clock-control none $M python3 dev/python/profile_case.py upsample_x8_bias fwd bf16 > $R/ncu_up8_bf16.txt 2>&1; echo "ncu exit $? ($SECONDS s)"
grep -E "stalled" $R/ncu_up8_bf16.txt | awk '$NF > 0.2' | sed 's/smsp__average_warps_issue_stalled_//' | head -12
