#!/usr/bin/env bash
# Run 403 (session 40, H200): the 96 KB resident-weights limit for TF32 stride-1 layers (library 400, session 39) on
# layers between 64 and 96 KB outside the suite (dev/python/probe_shapes.json: s1_w72k, s1_w80k, s1_w96k, s1_w96k_d2),
# forward and grad_input, rotated in one process: shipped / weights per stage (WRES=0) / always resident (WRES=1).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_400.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
for kind in fwd bwd_input; do
  timeout 130 python3 dev/python/ab_wgmma.py --problems dev/python/probe_shapes.json --budget-ms 30 --order rotate --rounds 3 \
    --shapes s1_w72k,s1_w80k,s1_w96k,s1_w96k_d2 --modes fp32 --kind $kind \
    --variants shipped,wres0=CONVT1D_WGMMA_RS_WRES:0,wres1=CONVT1D_WGMMA_RS_WRES:1 --out $R/wres_$kind.json > $R/wres_$kind.txt 2>&1
  echo "wres $kind exit $? ($SECONDS s)"
  grep -E "^kern|^s1_" $R/wres_$kind.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
done
