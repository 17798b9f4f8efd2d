#!/usr/bin/env bash
# Run 116 (session 13): Nsight Compute of the fused one-phase grad_weight on KernelBench 79, TF32 and bf16 (the 16-bit
# kernel moves half the bytes in the same time as TF32: which limit binds?), and of the fused grad_input in bf16.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section WarpStateStats --section LaunchStats --section SchedulerStats --section SourceCounters"
for m in fp32 bf16 fp32_strict; do
  timeout 100 ncu --clock-control none --profile-from-start off -k regex:"bwd_weight_phase_fused_kernel" $S python3 dev/python/profile_case.py kernelbench_79 bwd_weight $m > $R/ncu_bw_$m.txt 2>&1; echo "ncu bw $m exit $?"
done
timeout 100 ncu --clock-control none --profile-from-start off -k regex:"bwd_input_phase_fused_kernel" $S python3 dev/python/profile_case.py kernelbench_79 bwd_input bf16 > $R/ncu_bi_bf16.txt 2>&1; echo "ncu bi bf16 exit $?"
for f in $R/ncu_*.txt; do echo "== $f"; grep -E "Duration|DRAM Throughput|Memory Throughput|Issue Slots Busy|No Eligible|Achieved Occupancy|Registers Per|L1/TEX Hit|Mem Busy|Max Bandwidth|Stall|Warp Cycles Per Issued" $f | head -16; done
