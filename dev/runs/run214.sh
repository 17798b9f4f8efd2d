#!/usr/bin/env bash
# Run 214 (session 20, leads): SASS-level stall samples (Nsight Compute full set) of the register-A forward on
# upsample_x8 bf16 (256x1, 1.90x; ~50% of the tensor pipe) and KernelBench 64 TF32 (128x2, 2.70x): which instructions
# the warps wait at.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
for c in "upsample_x8_bias bf16 up8_bf16" "kernelbench_64 fp32 kb64_tf32"; do
  set -- $c
  timeout 200 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full --import-source no -f -o $R/ncu_$3 python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$3.log 2>&1; echo "ncu $3 exit $? ($SECONDS s)"
  ncu -i $R/ncu_$3.ncu-rep --page source --csv --print-source sass > $R/sass_$3.csv 2>&1; gzip $R/sass_$3.csv
  rm -f $R/ncu_$3.ncu-rep
  python3 dev/python/sass_summary.py $R/sass_$3.csv.gz > $R/sass_$3.txt 2>&1; head -60 $R/sass_$3.txt | cut -c1-160
done
