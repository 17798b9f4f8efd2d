#!/usr/bin/env bash
# Run 92: A/B of the grad_weight kernel choice where it loses to cuDNN: KernelBench 79 16-bit (odd grad_y
# length keeps it off the register-A kernel) on the phase-plane wgmma kernel (forced) vs shipped; the
# tensor-core kernel vs shipped on hifigan_up2, codec_dec_s5/s8, grouped_g4.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 250 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_79,hifigan_up2,codec_dec_s5,codec_dec_s8,grouped_g4,single_utterance_x8 --modes bf16,fp16,fp32 \
  --variants shipped,planes=CONVT1D_WGMMA_BW:1,tc=CONVT1D_WGMMA_BW:0+CONVT1D_WGMMA_BW_RS:0 --out $R/ab_bwd_weight.json > $R/ab.txt 2>&1; echo "ab exit $?"
cat $R/ab.txt | tail -24
