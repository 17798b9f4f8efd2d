#!/usr/bin/env bash
# Run 284 (session 26): KernelBench 64 TF32 with the weights resident. Its 128x2 tile re-reads all 196 KB of weights from
# L2 through the stages for every tile (60% of the stage traffic); 64-row tiles hold their 98 KB resident
# (CONVT1D_WGMMA_RS_WRES=1: wherever they fit; the default limit is 64 KB), the stages then carry the input only, and two
# neighbouring blocks take the two row tiles of the same positions (the second reads the input from L2). Rotated ABBA.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes kernelbench_64 --modes fp32 \
  --variants shipped,t64x2w=CONVT1D_WGMMA_RS_TILE:64x2+CONVT1D_WGMMA_RS_WRES:1,t64x1w=CONVT1D_WGMMA_RS_TILE:64x1+CONVT1D_WGMMA_RS_WRES:1,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,t64x2ws=CONVT1D_WGMMA_RS_TILE:64x2+CONVT1D_WGMMA_RS_WRES:1+CONVT1D_WGMMA_RS_EPI:staged \
  --out $R/ab_wres.json > $R/ab_wres.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^[a-z]" $R/ab_wres.txt | sed 's/ | /\n  /g'
