#!/usr/bin/env bash
# Run 149 (session 15): the tiny layers' single gradients that stay below cuDNN on GPU time (run 130: kernelbench_79_small's
# direct grad_input kernel 46 us against cuDNN's 7): every grad_input / grad_weight path forced, A/B (bwd_input: shipped,
# the fused one-phase kernel, tc, planes; bwd_weight: shipped, the fused one-phase kernel).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
S=kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes $S --modes fp32,fp32_strict,bf16 \
  --variants shipped,fused=CONVT1D_BWD_INPUT_FUSED:1,tc=CONVT1D_BWD_INPUT:tc,planes=CONVT1D_BWD_INPUT:planes,direct=CONVT1D_BWD_INPUT:direct \
  --out $R/ab_tiny_bwd_input.json > $R/ab_bi.txt 2>&1; echo "ab exit $?"; cut -c1-330 $R/ab_bi.txt | grep -E "small|single"
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes $S --modes fp32,fp32_strict,bf16 \
  --variants shipped,fused=CONVT1D_BWD_WEIGHT_FUSED:1 --out $R/ab_tiny_bwd_weight.json > $R/ab_bw.txt 2>&1; echo "ab exit $?"; cut -c1-250 $R/ab_bw.txt | grep -E "small|single"
