#!/usr/bin/env bash
# Run 355 (session 33): where the register-A forward's time goes now (Nsight Compute full set, SASS stall samples),
# library .carry/libconvt1d_354.so.xz: KernelBench 64 TF32 (128x2, ordered ping-pong with per-stage barriers, 2.8x) and
# upsample_x8 fp16 (256x1, 1.92x), hifigan_up1 fp16 (256x1, 1.87x).
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_354.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
for c in "kernelbench_64 fp32 kb64_tf32" "upsample_x8_bias fp16 up8_fp16" "hifigan_up1 fp16 up1_fp16"; do
  set -- $c
  timeout 170 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full --import-source no -f -o /tmp/ncu_$3 python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$3.log 2>&1; echo "ncu $3 exit $? ($SECONDS s)"
  ncu -i /tmp/ncu_$3.ncu-rep --page details > $R/details_$3.txt 2>&1
  ncu -i /tmp/ncu_$3.ncu-rep --page source --csv --print-source sass > $R/sass_$3.csv 2>&1; gzip $R/sass_$3.csv
  python3 dev/python/sass_summary.py $R/sass_$3.csv.gz > $R/sass_$3.txt 2>&1
  grep -E "Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Eligible Warps|SM Frequency|Registers Per|Shared Memory Configuration Size" $R/details_$3.txt | head -14
  head -45 $R/sass_$3.txt | cut -c1-150
done
