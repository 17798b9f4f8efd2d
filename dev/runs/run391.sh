#!/usr/bin/env bash
# Run 391 (session 38, H200): where KernelBench 74 TF32 (register-A, direct stores, no RX: the H200 defaults) and
# KernelBench 79 TF32 (the fused one-phase forward) spend their time on this card, library 388: Nsight Compute full set,
# SASS stall samples (the H100 profiles of Sessions 22-36 are the comparison).
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_388.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
for c in "kernelbench_74 fp32 kb74_tf32 fwd_wgmma_rs" "kernelbench_79 fp32 kb79_tf32 fwd_phase_fused"; do
  set -- $c
  timeout 120 ncu --profile-from-start off -k regex:"$4" --set full --import-source no -f -o /tmp/ncu_$3 python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$3.log 2>&1; echo "ncu $3 exit $? ($SECONDS s)"
  ncu -i /tmp/ncu_$3.ncu-rep --page details > $R/details_$3.txt 2>&1
  ncu -i /tmp/ncu_$3.ncu-rep --page source --csv --print-source sass > $R/sass_$3.csv 2>&1; gzip $R/sass_$3.csv
  python3 dev/python/sass_summary.py $R/sass_$3.csv.gz 200 > $R/sass_$3.txt 2>&1
  grep -E "^  [a-z_]+.*Function Name|Grid Size|Block Size|Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Memory Throughput|Issue Slots Busy|Eligible Warps|SM Frequency|DRAM Frequency|Registers Per" $R/details_$3.txt | head -14
  head -24 $R/sass_$3.txt | cut -c1-150
done
