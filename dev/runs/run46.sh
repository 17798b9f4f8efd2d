#!/usr/bin/env bash
# Run 46: where the register-A forward's time goes (the staged epilogue and resident weights did not move
# KernelBench 64, run 45): Nsight Compute full set with per-instruction SASS stall samples, KernelBench 64
# bf16 and TF32, KernelBench 74 TF32.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
for c in "kernelbench_64 bf16" "kernelbench_64 fp32" "kernelbench_74 fp32"; do
  set -- $c
  timeout 150 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full -f -o $R/ncu_$1_$2 \
    python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$1_$2.log 2>&1; echo "ncu $1 $2 exit $?"
  ncu -i $R/ncu_$1_$2.ncu-rep --page details > $R/ncu_$1_$2.txt 2>&1
  ncu -i $R/ncu_$1_$2.ncu-rep --page source --csv --print-source sass > $R/sass_$1_$2.csv 2>&1
  grep -E "Duration|DRAM Throughput|Compute \(SM\)|Issue Slots|No Eligible|Warp Cycles Per Issued|Executed Ipc" $R/ncu_$1_$2.txt | head -12
  rm -f $R/ncu_$1_$2.ncu-rep
done
ls -la $R
