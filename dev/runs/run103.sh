#!/usr/bin/env bash
# Run 103 (session 12): why the fused one-phase forward is slow (run 102: KernelBench 79 TF32 1.19 ms, bf16 0.99,
# a near-constant time per tile): parts left out and grid sizes (dev/python/fused_probe.py), then Nsight Compute
# on KernelBench 79 fp32 and bf16 (one call each).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 150 python3 dev/python/fused_probe.py kernelbench_79:fp32 kernelbench_79:bf16 kernelbench_74:bf16 2>&1 | tee $R/probe.txt
for m in fp32 bf16; do
  CONVT1D_FWD_FUSED=1 timeout 120 ncu --clock-control none --profile-from-start off --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats --section SchedulerStats --section SourceCounters python3 dev/python/profile_case.py kernelbench_79 fwd $m > $R/ncu_$m.txt 2>&1; echo "ncu exit $?"
  grep -E "Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Issue Slots Busy|No Eligible|Grid Size|Block Limit|L2 Hit|Mem Busy|Max Bandwidth|Stall" $R/ncu_$m.txt | head -40
done
