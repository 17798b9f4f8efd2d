#!/usr/bin/env bash
# Run 375 (session 36): the 2.5 ms state of KernelBench 64 TF32. Runs 366, 371 and 374 each built a library whose TF32
# 128x2 kernel kept a stack frame (371: 48 bytes, 374: 16) and each ran KernelBench 64 TF32 at 2.48-2.54 ms against
# 1.82-1.91, with their feature off. Library 375 = Session 33's source plus a stack frame in that kernel touched only in a
# branch that never runs (the probe in fwd_wgmma.cu's set-up). 1) 360 and 375 in alternating processes, 3 rounds.
# 2) Nsight Compute full set + SASS samples of KernelBench 64 TF32 with 374 (hints off) and 375, as run 372 did for 360.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 374 375; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l360 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for v in 374 375; do cp /tmp/l360/libconvt1d_torch.so /tmp/l360/libconvt1d_torch.torch_version /tmp/l$v/; done
for i in 1 2 3; do for v in 360 375; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 50 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,hifigan_up2 --modes fp32 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
for v in 374 375; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 200 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full --clock-control none \
    --import-source no -f -o /tmp/ncu_$v python3 dev/python/profile_case.py kernelbench_64 fwd fp32 > $R/ncu_$v.log 2>&1; echo "ncu $v exit $? ($SECONDS s)"
  ncu -i /tmp/ncu_$v.ncu-rep --page details > $R/details_$v.txt 2>&1
  ncu -i /tmp/ncu_$v.ncu-rep --page source --csv --print-source sass > $R/sass_$v.csv 2>&1; gzip $R/sass_$v.csv
  python3 dev/python/sass_summary.py $R/sass_$v.csv.gz 200 > $R/sass_$v.txt 2>&1
  grep -E "Duration|DRAM Throughput|L2 Cache Throughput|SM Frequency|Local Memory|Executed Instructions  " $R/details_$v.txt | head -8
  grep -E "^stall reasons" $R/sass_$v.txt
done
