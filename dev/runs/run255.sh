#!/usr/bin/env bash
# Run 255 (prepared in session 23, not run: the device time was spent). The next question for KernelBench 74 TF32
# (0.664 ms, 81% of the copy; 3.5x needs 0.60): which side of its traffic falls short of what the memory system gives
# the same traffic? Nsight Compute of the register-A forward (joint staged tile, the shipped form) beside session 20's
# Triton probe of KernelBench 74's traffic (x read once, y written: 96% of the copy there), the same metrics for both:
# DRAM read / write rates and bytes, L2 write sectors, stall reasons, the tensor pipe's share.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_write.sum.per_second,dram__bytes_read.sum.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed'
timeout 150 ncu --profile-from-start off -k regex:"rs_kernel" --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section SchedulerStats $M \
  python3 dev/python/profile_case.py kernelbench_74 fwd fp32 > $R/ncu_kb74_tf32.txt 2>&1; echo "ncu kb74 exit $? ($SECONDS s)"
# The probe times its pitch 131072 first, then 131084 (KernelBench 74's rows): -c 2 takes two launches of the first;
# add --launch-skip N (the launches do_bench makes of the first pitch) to reach the second.
timeout 150 ncu -k regex:"one_to_two" -c 2 --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section SchedulerStats $M \
  python3 dev/python/bw_probe.py > $R/ncu_bw_probe.txt 2>&1; echo "ncu probe exit $? ($SECONDS s)"
for f in $R/ncu_kb74_tf32.txt $R/ncu_bw_probe.txt; do
  echo "== $f"; grep -E "void|Duration|DRAM Throughput|Memory Throughput|bytes_write|bytes_read|sectors|gmma|inst_executed" $f | cut -c1-150 | head -20
  grep -E "stalled" $f | awk '$NF > 0.3' | sed 's/smsp__average_warps_issue_stalled_//' | head -8
done
