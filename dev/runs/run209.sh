#!/usr/bin/env bash
# Run 209 (session 20, leads for the next session): Nsight Compute on KernelBench 79's forward (the phase-fused mma.sync
# kernel, 70% of copy bandwidth in TF32) and on KernelBench 64 TF32's forward as shipped now: throughput sections and
# stall reasons per issued instruction.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum'
for c in "kernelbench_79 fp32 fused" "kernelbench_79 bf16 fused" "kernelbench_64 fp32 fwd_wgmma"; do
  set -- $c
  timeout 100 ncu --profile-from-start off -k regex:"$3" --clock-control none --section SpeedOfLight --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --section LaunchStats $M \
    python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$1_$2.txt 2>&1; echo "ncu $1 $2 exit $? ($SECONDS s)"
  grep -E "void|Duration|DRAM Throughput|Issue Slots|Eligible Warps|Active Warps Per|Block Size|Registers Per|Grid Size" $R/ncu_$1_$2.txt | cut -c1-150 | head -10
  grep -E "stalled" $R/ncu_$1_$2.txt | awk '$NF > 0.3' | sed 's/smsp__average_warps_issue_stalled_//' | head -10
done
