#!/usr/bin/env bash
# Run 260 (session 24): the gradients that are slower than cuDNN in the committed results (run 244): grouped_g4 16-bit
# grad_input (0.60x: the mma.sync kernel with groups on the grid, slower in bf16 than in TF32), codec_dec_s5 bf16
# grad_input (0.80x), hifigan_up1 bf16 grad_input (0.93x): each grad_input path the library has, side by side
# (CONVT1D_BWD_INPUT = wgmma / planes / tc / direct; a path that declines falls through to the next as in api.cu).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
B=CONVT1D_BWD_INPUT
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_input --budget-ms 60 --shapes grouped_g4 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,planes=$B:planes,tc=$B:tc,direct=$B:direct" --out $R/ab_gin_grouped.json > $R/ab_gin_grouped.txt 2>&1; echo "ab grouped exit $? ($SECONDS s)"; cut -c1-330 $R/ab_gin_grouped.txt | tail -4
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_input --budget-ms 60 --shapes codec_dec_s5,hifigan_up1 --modes fp16,bf16 \
  --variants "shipped,wgmma=$B:wgmma,planes=$B:planes,tc=$B:tc" --out $R/ab_gin_voc.json > $R/ab_gin_voc.txt 2>&1; echo "ab voc exit $? ($SECONDS s)"; cut -c1-330 $R/ab_gin_voc.txt | tail -4
