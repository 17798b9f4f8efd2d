#!/usr/bin/env bash
# Run 448 (session 49, on run 447's warm machine, library 447 and its op already in /tmp/l447): learning only, for the
# backward's picks on the zoo's training layers (run 447: bigvgan_v2_up4_train bf16 grad_input 0.126 ms by default,
# 0.062 with CONVT1D_WGMMA_RS=1; grad_weight 0.138 on the register-A kernel, 0.093 with CONVT1D_WGMMA_BW_RS=0).
# bf16 grad_input / grad_weight of every training layer: the default, CONVT1D_WGMMA_RS=1, CONVT1D_WGMMA_BW_RS=0.
# As run, the backward switches CONVT1D_X=0, CONVT1D_WGMMA_BW_RS=0 (and in run 447 CONVT1D_WGMMA_BW=0) wrote one file,
# bwd_0.json: the last one stands; bench/results/ab/h100_zoo_bwd_picks_run447_448.json has every result, from stdout.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1 CONVT1D_LIBRARY=/tmp/l447/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
Z=bench/zoo.json
T=$(python3 -c "import json; print(','.join(c['name'] for c in json.load(open('$Z'))['suite'] if 'train' in c['tags'] and 'latency' not in c['tags']))")
for e in CONVT1D_X=0 CONVT1D_WGMMA_RS=1 CONVT1D_WGMMA_BW_RS=0; do
  env $e timeout 60 python3 -m convt1d.bench --problems $Z --shapes $T --backward --modes bf16_bwd_input,bf16_bwd_weight \
    --budget-ms 20 --out $R/bwd_${e#*=}.json > $R/bwd_${e#*=}.txt 2>&1
  echo "$e ($SECONDS s)"; grep -E "_train " $R/bwd_${e#*=}.txt | awk '{print "  ", $1, $2, $3, $4, $5}'
done
