#!/usr/bin/env bash
# Run 291 (session 26): KernelBench 64 fp16 read 2.48x in run 289's suite (1.129 ms; 1.085-1.106 in runs 275 / 283) and
# every register-A kernel carries the spare-row stores since ca8da03: session 25's final library (58f0fb9) against this
# session's, 3 rounds in alternating processes, on the stride-1 16-bit layers (position-pair kernels).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2 3; do for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 60 --shapes kernelbench_64,kernelbench_74 \
    --modes fp16,bf16 --variants shipped --out $R/ab_lib_${v}_$i.json > $R/ab_lib_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel)' $R/ab_lib_${v}_$i.txt | awk '{print $1, $2, $4, $7}' | tr '\n' ' ')"
done; done
