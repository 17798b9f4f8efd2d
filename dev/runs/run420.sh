#!/usr/bin/env bash
# Run 420 (session 45, H100): KernelBench 64 in 16-bit with its resident weights and ping-pong tiles. Library 415
# (.carry/libconvt1d_cur.so.xz). The 16-bit KernelBench 64 forward keeps its 96 KB of weights resident and runs both
# warpgroups on one tile (run 154's rule, Session 16: ping-pong lost then, bf16 1.184 / 1.060 ms); its epilogue, both
# warpgroups storing at once with the tensor pipe idle, held 28% of the stall samples in run 362. Ping-pong would
# overlap one warpgroup's stores with the other's MMAs; never measured since Session 16's later changes.
# Environment switches only (CONVT1D_WGMMA_RS_PP=1 takes ping-pong with resident weights), rotated, 5 rounds.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_cur.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
ab() { # name timeout kind shapes modes variants
  timeout $2 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind $3 --shapes $4 --modes $5 \
    --variants $6 --out $R/$1.json > $R/$1.txt 2>&1; echo "$1 exit $? ($SECONDS s)"
  grep -E "^[a-z]" $R/$1.txt | grep -E "cudnn" | sed 's/ *[0-9]* TF\/s//g' | cut -c1-400; }
V="shipped,pp=CONVT1D_WGMMA_RS_PP:1,ppst=CONVT1D_WGMMA_RS_PP:1+CONVT1D_WGMMA_RS_EPI:staged,st=CONVT1D_WGMMA_RS_EPI:staged"
ab kb64_pp16 200 fwd kernelbench_64 fp16,bf16 $V
ab kb64_pp16_gi 150 bwd_input kernelbench_64 fp16,bf16 $V
