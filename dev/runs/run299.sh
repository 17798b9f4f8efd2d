#!/usr/bin/env bash
# Run 299 (session 27): run 298 found the rounded boxes wrong where a chunk runs two k-steps (C_in 16, 48), N-dependent:
# a race. Two candidate libraries (.carry_ab, xz): v1 = RX without the loads a k-step ahead; v2 = RX with them, but no
# MMA pending when a tap's first loads issue (wgmma wait 0 at each tap's start). Each: rx_probe.py, then the A/B of RX
# on / off (rotated, one process) on KernelBench 74 and hifigan_up4.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in v1 v2; do
  xz -d -c .carry_ab/var_$v.so.xz > /tmp/$v.so
  echo "== $v"; CONVT1D_LIBRARY=/tmp/$v.so timeout 100 python3 dev/python/rx_probe.py 2>&1 | tee $R/rx_probe_$v.txt | awk '{print $1, $2, $4, $6, $7, $8, $9, $10}'
  CONVT1D_LIBRARY=/tmp/$v.so timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_74,hifigan_up4 \
    --modes fp32 --variants shipped,rx0=CONVT1D_WGMMA_RS_RX:0 --out $R/ab_$v.json > $R/ab_$v.txt 2>&1; cat $R/ab_$v.txt
done
