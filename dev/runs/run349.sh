#!/usr/bin/env bash
# Run 349 (session 32): run 348's probe again (its --variants was required in the child processes too).
# Run 348 (session 32): run 347's two-stage ordered ping-pong (CONVT1D_WGMMA_RS_PPO=2) failed on KernelBench 64 TF32
# ("unspecified launch failure"); the tests had only layers of one tile per block, where the ordering never acts.
# Library .carry/libconvt1d_348.so.xz: the arrive chunk now a host argument (WgArgs::ppo_at), and
# CONVT1D_WGMMA_RS_PPO_LAST=1 lets the next tile start only after the last chunk's wait. 1) dev/python/ppo_probe.py:
# each variant in its own process, bits against PPO=0, at 8 x 16384 and KernelBench 64's 64 x 65536. 2) The new
# many-tiles test and the rsppo picks. 3) KernelBench 64 TF32 times of the variants that pass.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_348.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
P=CONVT1D_WGMMA_RS_PP:1+CONVT1D_WGMMA_RS_WRES:0
timeout 300 python3 dev/python/ppo_probe.py --sizes 64x65536,8x16384 --modes fp32 \
  --variants base=CONVT1D_WGMMA_RS_PPO:0,s3=CONVT1D_WGMMA_RS_PPO:1,s3last=CONVT1D_WGMMA_RS_PPO:1+CONVT1D_WGMMA_RS_PPO_LAST:1,s2=CONVT1D_WGMMA_RS_PPO:2,s2last=CONVT1D_WGMMA_RS_PPO:2+CONVT1D_WGMMA_RS_PPO_LAST:1 \
  2>&1 | tee $R/probe_fp32.txt; echo "probe fp32 ($SECONDS s)"
timeout 90 python3 dev/python/ppo_probe.py --sizes 8x16384 --modes fp16 \
  --variants base=CONVT1D_WGMMA_RS_PPO:0+CONVT1D_WGMMA_RS_WRES:0,s2=CONVT1D_WGMMA_RS_PPO:2+$P,s2last=CONVT1D_WGMMA_RS_PPO:2+CONVT1D_WGMMA_RS_PPO_LAST:1+$P \
  2>&1 | tee $R/probe_fp16.txt; echo "probe fp16 ($SECONDS s)"
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_64 --modes fp32 \
  --variants shipped,s2=CONVT1D_WGMMA_RS_PPO:2,s2last=CONVT1D_WGMMA_RS_PPO:2+CONVT1D_WGMMA_RS_PPO_LAST:1,noppo=CONVT1D_WGMMA_RS_PPO:0 --out $R/ab_ppo_at.json > $R/ab_ppo_at.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^kern" $R/ab_ppo_at.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
