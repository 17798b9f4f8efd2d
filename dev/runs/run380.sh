#!/usr/bin/env bash
# Run 380 (session 37, H200). Run 379: run 165's library (8d821a5) runs KernelBench 74 TF32 at 0.538-0.564 ms on the
# H200 against 0.652-0.653 for Session 33's; Session 33's best switch there was direct stores without ping-pong (0.633).
# Run 165's kernel stored directly with ping-pong and had no RX (input rounded in shared memory, Session 27), no
# programmatic launch (Session 31) and no check-free epilogue (Session 33). Which of these costs on the H200? Session
# 33's switches in combinations, rotated in one process, 5 rounds; run 165's library before and after in its own process.
set -u
export CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $R/gpu.txt
for v in 360 165; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l360 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
bash .carry/o165/scripts/build_torch_op.sh /tmp/l165 > $R/build_op165.txt 2>&1; echo "op165 build exit $? ($SECONDS s)"
old() { CONVT1D_LIBRARY=/tmp/l165/libconvt1d.so timeout 40 python3 .carry/o165/dev/python/ab_wgmma.py --budget-ms 40 --shapes kernelbench_74 \
    --modes fp32 --variants shipped --out $R/ab_165_$1.json > $R/ab_165_$1.txt 2>&1; echo "165 $1 ($SECONDS s): $(grep -E '^kernel' $R/ab_165_$1.txt | awk '{print $1, $2, $7}')"; }
old 1
E=CONVT1D_WGMMA_RS_EPI:direct+CONVT1D_WGMMA_RS_RX:0
V=shipped,rx0=CONVT1D_WGMMA_RS_RX:0,pdl0=CONVT1D_WGMMA_PDL:0,epid_rx0=$E,epid_rx0_pp0=$E+CONVT1D_WGMMA_RS_PP:0,epid_rx0_pdl0=$E+CONVT1D_WGMMA_PDL:0
V=$V,epid_rx0_pfast0=$E+CONVT1D_WGMMA_RS_PFAST:0,epid_rx0_ppo0=$E+CONVT1D_WGMMA_RS_PPO:0,joint0_rx0=CONVT1D_WGMMA_RS_JOINT:0+CONVT1D_WGMMA_RS_RX:0
V=$V,epid_pp0=CONVT1D_WGMMA_RS_EPI:direct+CONVT1D_WGMMA_RS_PP:0,all_old=$E+CONVT1D_WGMMA_PDL:0+CONVT1D_WGMMA_RS_PFAST:0+CONVT1D_WGMMA_RS_PPO:0
PYTHONPATH=$PWD/python CONVT1D_LIBRARY=/tmp/l360/libconvt1d.so timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 \
  --shapes kernelbench_74 --modes fp32 --variants $V --out $R/sweep_kb74.json > $R/sweep_kb74.txt 2>&1; echo "sweep exit $? ($SECONDS s)"
sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g; s/ | /\n/g' $R/sweep_kb74.txt | grep -v "^ *$"
old 2
