#!/usr/bin/env bash
# Run 286 (session 26): the weight pack's share of the strided forwards (run 285: on single_utterance_x8 the scratch memset
# and the pack took 12-18 of ~45 us per call): the kernels of one forward call and their GPU time (torch.profiler).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for s in codec_dec_s8 upsample_x8_bias hifigan_up1 codec_dec_s5 kernelbench_64; do for m in fp32 bf16; do
  timeout 60 python3 dev/python/profile_case.py $s fwd $m times 2>/dev/null | cut -c1-120; done; done | tee $R/kernels.txt
