#!/usr/bin/env bash
# Run 187 (session 19): why single_utterance_x8 (batch 1, stride 8) grad_input reads 0.58x cuDNN alone: the
# kernels and their GPU time (torch.profiler), the training step's wall time (host- or GPU-bound), and the
# grad_input kernels each forced (CONVT1D_BWD_INPUT), with codec_dec_s5 (16-bit grad_input 0.77-0.79x).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/convt1d_torch_op.so ] || ls .carry
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
timeout 60 python3 dev/python/profile_latency_step.py single_utterance_x8 fp32,bf16 > $R/step.txt 2>&1; echo "step exit $? ($SECONDS s)"
timeout 60 python3 dev/python/profile_latency_bwd.py single_utterance_x8 fp32,bf16 > $R/bwd.txt 2>&1; echo "bwd exit $? ($SECONDS s)"
timeout 90 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes single_utterance_x8,codec_dec_s5 --modes fp32,fp32_strict,bf16 --budget-ms 20 \
  --variants "shipped,wgmma=CONVT1D_BWD_INPUT:wgmma,planes=CONVT1D_BWD_INPUT:planes,tc=CONVT1D_BWD_INPUT:tc,direct=CONVT1D_BWD_INPUT:direct,rs=CONVT1D_WGMMA_RS:1" --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_bi.txt | tail -12
