#!/usr/bin/env bash
# Run 378 (session 37, H200; the committed H200 forward record is from 8d821a5, before Sessions 22-36): with Session 33's
# library (.carry/libconvt1d_360.so.xz) 1) the forward suite and the KernelBench evaluation on the H200 (the records);
# 2) a sweep of the register-A kernel's switches on the headline and vocoder layers, rotated in one process, 3 rounds:
# do the H100-tuned defaults (tile, ping-pong, ordered ping-pong, joint tile, staged epilogue) hold on the H200?
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l360 && xz -dc .carry/libconvt1d_360.so.xz > /tmp/l360/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l360 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l360/libconvt1d.so
timeout 110 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|codec_dec_s5|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-100
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-220
V=shipped,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t256x1=CONVT1D_WGMMA_RS_TILE:256x1,pp0=CONVT1D_WGMMA_RS_PP:0,pp1=CONVT1D_WGMMA_RS_PP:1,ppo0=CONVT1D_WGMMA_RS_PPO:0,joint0=CONVT1D_WGMMA_RS_JOINT:0,epid=CONVT1D_WGMMA_RS_EPI:direct,epis=CONVT1D_WGMMA_RS_EPI:staged
for SH in kernelbench_64,kernelbench_74,kernelbench_79 hifigan_up1,codec_dec_s5,codec_dec_s8,upsample_x8_bias,hifigan_up2,hifigan_up3,hifigan_up4; do
  timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes $SH --modes fp32,fp16,bf16 \
    --variants $V --out $R/sweep_${SH%%,*}.json > $R/sweep_${SH%%,*}.txt 2>&1; echo "sweep exit $? ($SECONDS s)"
  grep -E "^(kern|hifi|codec|upsa)" $R/sweep_${SH%%,*}.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g'
done
