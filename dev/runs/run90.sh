#!/usr/bin/env bash
# Run 90: A/B of the grad_input kernel choice where it loses to cuDNN (grouped_g4, codec_dec_s5/s8,
# hifigan_up1, single_utterance_x8): shipped vs the phase-plane path, the tensor-core kernel, and the
# TMA-planes wgmma path with the register-A kernel off.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 400 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes grouped_g4,codec_dec_s5,codec_dec_s8,hifigan_up1,single_utterance_x8,upsample_x8_bias --modes bf16,fp32 \
  --variants shipped,planes=CONVT1D_BWD_INPUT:planes,tc=CONVT1D_BWD_INPUT:tc,nors=CONVT1D_WGMMA_RS:0 --out $R/ab_bwd_input.json > $R/ab.txt 2>&1; echo "ab exit $?"
cat $R/ab.txt | tail -40
