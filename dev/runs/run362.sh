#!/usr/bin/env bash
# Run 362 (session 34): where the time goes in the rows still short of their targets, with the final library
# (.carry/libconvt1d_360.so.xz; Nsight Compute full set, SASS stall samples and per-region instruction counts):
# hifigan_up1 TF32 (1.98x), codec_dec_s5 TF32 and bf16 (1.60 / 1.79x), KernelBench 64 fp16 (2.50x).
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_360.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
for c in "hifigan_up1 fp32 up1_tf32" "codec_dec_s5 fp32 s5_tf32" "codec_dec_s5 bf16 s5_bf16" "kernelbench_64 fp16 kb64_fp16"; do
  set -- $c
  timeout 140 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full --import-source no -f -o /tmp/ncu_$3 python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$3.log 2>&1; echo "ncu $3 exit $? ($SECONDS s)"
  ncu -i /tmp/ncu_$3.ncu-rep --page details > $R/details_$3.txt 2>&1
  ncu -i /tmp/ncu_$3.ncu-rep --page source --csv --print-source sass > $R/sass_$3.csv 2>&1; gzip $R/sass_$3.csv
  python3 dev/python/sass_summary.py $R/sass_$3.csv.gz 200 > $R/sass_$3.txt 2>&1
  grep -E "^  [a-z_]+.*Function Name|Grid Size|Block Size|Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Eligible Warps|SM Frequency|Registers Per|Dynamic Shared Memory Per" $R/details_$3.txt | head -14
  head -30 $R/sass_$3.txt | cut -c1-150
done
