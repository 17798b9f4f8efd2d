#!/usr/bin/env bash
# Run 132 (session 14): where the register-A forward's warps stall (SASS stall sampling), on the 16-bit layers that
# miss their targets: codec_dec_s8 fp16 (256x1 tiles, tensor pipe 56% in run 128), KernelBench 64 bf16 and 74 bf16.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for c in "codec_dec_s8 fwd fp16" "kernelbench_64 fwd bf16" "kernelbench_74 fwd bf16"; do
  set -- $c
  tag=$1_$3
  timeout 150 ncu --profile-from-start off -k regex:"fwd_wgmma_rs_kernel" --launch-count 1 --set full --import-source no -f -o $R/ncu_$tag python3 dev/python/profile_case.py $c > $R/ncu_$tag.log 2>&1; echo "ncu $c exit $?"
  ncu -i $R/ncu_$tag.ncu-rep --page details > $R/ncu_$tag.txt 2>&1
  ncu -i $R/ncu_$tag.ncu-rep --page source --csv --print-source sass > $R/sass_$tag.csv 2>&1
  rm -f $R/ncu_$tag.ncu-rep; gzip -f $R/sass_$tag.csv
  echo "== $tag"; grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Issue Slots Busy|No Eligible|Registers Per|Grid Size|Dynamic Shared" $R/ncu_$tag.txt | head -9
  python3 dev/python/sass_summary.py $R/sass_$tag.csv.gz 2>&1 | head -60
done
