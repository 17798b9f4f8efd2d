#!/usr/bin/env bash
# Run 419 (session 45, H100): KernelBench 64 TF32 on 64-row tiles with its weights resident. Library 415 (source of
# c648811, rebuilt in session 45 as .carry/libconvt1d_cur.so.xz, sm_90a). KernelBench 64's 128-row tile carries 192 KB
# of TF32 weights, too many to keep resident, so every stage restages a chunk's 48 KB of weights and the ring holds
# three 65 KB stages. A 64-row tile's weights are 96 KB, at the limit that the stride-1 TF32 forward keeps resident
# since Session 39 (rs_s1_direct), which was never measured on KernelBench 64 at 64 rows (run 395's 64x2, 2.27 ms on
# an H200, was before that limit: weights per stage). The price: x read by both row tiles (its second read from L2) and
# twice the A fragment loads per MMA. Environment switches only, rotated in one process, 5 rounds.
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
T=CONVT1D_WGMMA_RS_TILE:64x2
V="shipped,t64=$T,t64rx=$T+CONVT1D_WGMMA_RS_RX:1,t64s=$T+CONVT1D_WGMMA_RS_EPI:staged+CONVT1D_WGMMA_RS_JOINT:0"
V="$V,t64srx=$T+CONVT1D_WGMMA_RS_EPI:staged+CONVT1D_WGMMA_RS_JOINT:0+CONVT1D_WGMMA_RS_RX:1,t64nw=$T+CONVT1D_WGMMA_RS_WRES:0"
ab kb64_t64 150 fwd kernelbench_64 fp32 $V
ab kb64_t64_gi 150 bwd_input kernelbench_64 fp32 $V
