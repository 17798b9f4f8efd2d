#!/usr/bin/env bash
# Run 220 (session 21): the one-phase register-A forward as the split-TF32 default (no ping-pong); its tests; the A/B
# against the phase-fused kernel; Nsight Compute on KernelBench 79 TF32 through it (CONVT1D_WGMMA_RS_OP=1): where
# its 0.66 ms ceiling (TF32 and strict alike, run 219) comes from.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "one_phase or rs_taken" > $R/pytest_op.txt 2>&1; echo "pytest op exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_op.txt | head -12)
(cd /tmp && timeout 60 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "fused or one_phase" > $R/pytest_fused.txt 2>&1; echo "pytest fused exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_fused.txt | head -12)
timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 100 --shapes kernelbench_79 --modes fp32_strict,fp32 \
  --variants "shipped,fused=CONVT1D_WGMMA_RS_OP:0,op=CONVT1D_WGMMA_RS_OP:1" --out $R/ab_op.json > $R/ab_op.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_op.txt | tail -2
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,dram__bytes_write.sum.per_second,dram__bytes_read.sum.per_second,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,lts__t_sectors_srcunit_tex_op_write.sum'
for c in "fp32 1" "fp32_strict 1" "fp32 0"; do
  set -- $c
  CONVT1D_WGMMA_RS_OP=$2 timeout 100 ncu --profile-from-start off -k regex:"rs_kernel|fused" --clock-control none --section SpeedOfLight --section SchedulerStats --section MemoryWorkloadAnalysis_Tables --section LaunchStats $M \
    python3 dev/python/profile_case.py kernelbench_79 fwd $1 > $R/ncu_kb79_$1_op$2.txt 2>&1; echo "ncu $1 op=$2 exit $? ($SECONDS s)"
  grep -E "void|Duration|DRAM Throughput|L2 Cache Th|Issue Slots|Eligible Warps|Active Warps Per|Registers Per|Grid Size|bytes_write|bytes_read|bank_conf|sectors_src" $R/ncu_kb79_$1_op$2.txt | cut -c1-150 | head -14
  grep -E "stalled" $R/ncu_kb79_$1_op$2.txt | awk '$NF > 0.3' | sed 's/smsp__average_warps_issue_stalled_//' | head -10
done
