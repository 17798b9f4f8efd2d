#!/usr/bin/env bash
# Run 246 (session 22, a lead for the next one): why 16-bit loses with the fused forward's 128-byte lines (run 237: bf16
# 0.36-0.40 vs 0.313 ms on KernelBench 79) while TF32 gains: Nsight Compute of the fused kernel, bf16 lines / spans and
# TF32 lines, with the write sectors, DRAM bytes and stall reasons.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_write.sum.per_second,dram__bytes_read.sum.per_second,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,lts__t_sectors_srcunit_tex_op_write.sum'
for c in "bf16 1" "bf16 0" "fp32 1"; do
  set -- $c
  CONVT1D_FUSED_LINE=$2 timeout 100 ncu --profile-from-start off -k regex:"fused" --clock-control none --section SpeedOfLight --section SchedulerStats --section LaunchStats --section Occupancy $M \
    python3 dev/python/profile_case.py kernelbench_79 fwd $1 > $R/ncu_kb79_$1_line$2.txt 2>&1; echo "ncu $1 line=$2 exit $? ($SECONDS s)"
  grep -E "void|Duration|DRAM Throughput|Registers Per|Grid Size|Block Size|Dynamic Shared|bytes_write|bytes_read|bank_conf|sectors_src|inst_executed" $R/ncu_kb79_$1_line$2.txt | cut -c1-150 | head -16
  grep -E "stalled" $R/ncu_kb79_$1_line$2.txt | awk '$NF > 0.3' | sed 's/smsp__average_warps_issue_stalled_//' | head -8
done
