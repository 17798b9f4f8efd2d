#!/usr/bin/env bash
# Run 379 (session 37, H200). Run 378 timed Session 33's library on the H200 against the committed H200 record (run 165,
# library of 8d821a5): most rows gained, but KernelBench 74 TF32 0.658 against 0.575 and 79 TF32 0.502 against 0.467.
# 1) Run 165's library (8d821a5, rebuilt for sm_90a only; its own Python front, .carry/o165) and Session 33's in
# alternating processes, 3 rounds: is the loss real on today's H200? 2) Session 33's switches rotated in one process:
# KernelBench 74 TF32 epilogue / ping-pong / joint / tile; KernelBench 79 the fused kernel's tile width and line layout;
# the vocoder layers where run 378 saw a switch win (hifigan_up2 256x1; hifigan_up3/up4 16-bit direct stores).
set -u
export CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee $R/gpu.txt
for v in 360 165; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l360 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
bash .carry/o165/scripts/build_torch_op.sh /tmp/l165 > $R/build_op165.txt 2>&1; echo "op165 build exit $? ($SECONDS s)"
for i in 1 2 3; do for v in 165 360; do
  AB=dev/python/ab_wgmma.py; [ $v = 165 ] && AB=.carry/o165/dev/python/ab_wgmma.py
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 60 python3 $AB --budget-ms 40 --shapes kernelbench_74,kernelbench_79,kernelbench_64 \
    --modes fp32,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^kernel' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=/tmp/l360/libconvt1d.so
sweep() { # name shapes modes variants
  timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes $2 --modes $3 --variants $4 \
    --out $R/sweep_$1.json > $R/sweep_$1.txt 2>&1; echo "sweep $1 exit $? ($SECONDS s)"
  grep -E "^(kern|hifi|codec|upsa|grou)" $R/sweep_$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g'
}
E=CONVT1D_WGMMA_RS_EPI:direct
sweep kb74 kernelbench_74 fp32 shipped,epid=$E,epid_pp0=$E+CONVT1D_WGMMA_RS_PP:0,epid_ppo0=$E+CONVT1D_WGMMA_RS_PPO:0,joint0=CONVT1D_WGMMA_RS_JOINT:0,joint0_pp0=CONVT1D_WGMMA_RS_JOINT:0+CONVT1D_WGMMA_RS_PP:0,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,t64x2_epid=CONVT1D_WGMMA_RS_TILE:64x2+$E
sweep kb79 kernelbench_79 fp32,fp16,bf16 shipped,bt128=CONVT1D_FUSED_BT:128,line0=CONVT1D_FUSED_LINE:0,bt128_line0=CONVT1D_FUSED_BT:128+CONVT1D_FUSED_LINE:0,yp0=CONVT1D_FUSED_YP:0
sweep up2 hifigan_up2,hifigan_up1,upsample_x8_bias fp32,fp16,bf16 shipped,t256x1=CONVT1D_WGMMA_RS_TILE:256x1,t128x2=CONVT1D_WGMMA_RS_TILE:128x2
sweep epi hifigan_up3,hifigan_up4,grouped_g4,codec_dec_s5 fp32,fp16,bf16 shipped,epid=$E,epis=CONVT1D_WGMMA_RS_EPI:staged
