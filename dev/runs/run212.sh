#!/usr/bin/env bash
# Run 212 (session 20): the register-A forward without ping-pong has both consumer warpgroups store the same tile at
# the same time (tensor pipe idle meanwhile; KernelBench 64 TF32 long-scoreboard 3.83). A/B of starting the second
# warpgroup later (CONVT1D_WGMMA_RS_SKEW, ns; session 8 on the H200: inconclusive) on KernelBench 64 and the stride-8
# layers (256x1 tiles).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
V="shipped,sk1=CONVT1D_WGMMA_RS_SKEW:1000,sk2=CONVT1D_WGMMA_RS_SKEW:2500,sk5=CONVT1D_WGMMA_RS_SKEW:5000"
timeout 150 python3 dev/python/ab_wgmma.py --kind fwd --shapes kernelbench_64,upsample_x8_bias,hifigan_up1,codec_dec_s8 --modes fp32,bf16 --budget-ms 30 --variants "$V" --out $R/ab_skew.json > $R/ab_skew.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-230 $R/ab_skew.txt | tail -8
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64 --modes fp32 --budget-ms 30 --variants "$V" --out $R/ab_skew_bi.json > $R/ab_skew_bi.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-230 $R/ab_skew_bi.txt | tail -1
