#!/usr/bin/env bash
# Run 205 (session 20): why the stride-1 TF32 forward sits at 68% of DRAM (run 204: 2.25 warps per scheduler, 0.32
# eligible): stall reasons on KernelBench 74 (direct and staged epilogue) and 64; A/B of the staged epilogue on the
# stride-1 layers (forward and grad_input, every mode) and of the register-A kernel for KernelBench 79 in TF32.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed'
for c in "kernelbench_74 fp32 direct" "kernelbench_74 fp32 staged" "kernelbench_64 fp32 direct"; do
  set -- $c
  CONVT1D_WGMMA_RS_EPI=$3 timeout 100 ncu --profile-from-start off -k regex:"fwd_wgmma" --clock-control none $M --section SourceCounters \
    python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$1_$2_$3.txt 2>&1; echo "ncu $1 $2 $3 exit $? ($SECONDS s)"
  grep -E "stalled" $R/ncu_$1_$2_$3.txt | awk '$NF > 0.3' | sed 's/smsp__average_warps_issue_stalled_//' | head -12
done
A="timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 25"
$A --kind fwd --shapes kernelbench_74,kernelbench_64 --modes fp32,fp16,bf16 --variants "shipped,staged=CONVT1D_WGMMA_RS_EPI:staged,staged_nopp=CONVT1D_WGMMA_RS_EPI:staged+CONVT1D_WGMMA_RS_PP:0" --out $R/ab_s1_fwd.json > $R/ab_s1_fwd.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_s1_fwd.txt | tail -6
$A --kind fwd --shapes kernelbench_79 --modes fp32,fp32_strict,bf16 --variants "shipped,rs=CONVT1D_WGMMA_RS:1,rs_direct=CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_EPI:direct" --out $R/ab_79.json > $R/ab_79.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_79.txt | tail -3
$A --kind bwd_input --shapes kernelbench_64,kernelbench_74 --modes fp32,bf16 --variants "shipped,staged=CONVT1D_WGMMA_RS_EPI:staged,direct=CONVT1D_WGMMA_RS_EPI:direct" --out $R/ab_s1_bi.json > $R/ab_s1_bi.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_s1_bi.txt | tail -4
