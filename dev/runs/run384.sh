#!/usr/bin/env bash
# Run 384 (session 37, H200): run 165's library (8d821a5) and library 381 in alternating processes, 3 rounds, on the rows
# where 381's H200 defaults act (KernelBench 74 / 79 TF32): does a gap to 8d821a5 remain?
set -u
export CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 381 165; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l381 > $R/build_op.txt 2>&1 & bash .carry/o165/scripts/build_torch_op.sh /tmp/l165 > $R/build_op165.txt 2>&1; wait; echo "op builds ($SECONDS s)"
for i in 1 2 3; do for v in 165 381; do
  AB=dev/python/ab_wgmma.py; [ $v = 165 ] && AB=.carry/o165/dev/python/ab_wgmma.py
  PYTHONPATH=$PWD/python CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 30 python3 $AB --budget-ms 30 --shapes kernelbench_74,kernelbench_79 \
    --modes fp32 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
