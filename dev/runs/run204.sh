#!/usr/bin/env bash
# Run 204 (session 20): where the stride-1 TF32 forward's time goes on the H100 (KernelBench 64 / 74 / 79, the issue-3
# TF32 targets): Nsight Compute with warp-state and memory sections; the card's read / write / copy bandwidth at
# KernelBench 74's sizes (what a write-heavy kernel can reach); A/B of tile and epilogue settings; the stride-8
# layers' L2 load after the pair stores (for the weight-multicast plan).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
timeout 40 python3 dev/python/bw_probe.py > $R/bw_probe.txt 2>&1; echo "bw exit $?"; cat $R/bw_probe.txt
for c in "kernelbench_74 fp32" "kernelbench_64 fp32" "kernelbench_79 fp32" "upsample_x8_bias bf16" "hifigan_up1 bf16"; do
  set -- $c
  timeout 100 ncu --profile-from-start off -k regex:"fwd_wgmma" --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats \
    python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$1_$2.txt 2>&1; echo "ncu $1 $2 exit $? ($SECONDS s)"
  grep -E "Duration|Memory Throughput|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Grid Size|Executed Ipc A|Issue Slots Busy|No Eligible" $R/ncu_$1_$2.txt | head -12
done
timeout 120 python3 dev/python/ab_wgmma.py --kind fwd --shapes kernelbench_74,kernelbench_79,kernelbench_64 --modes fp32 --budget-ms 30 \
  --variants "shipped,nopp=CONVT1D_WGMMA_RS_PP:0,staged=CONVT1D_WGMMA_RS_EPI:staged,nowres=CONVT1D_WGMMA_RS_WRES:0" --out $R/ab_s1.json > $R/ab_s1.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_s1.txt | tail -8
