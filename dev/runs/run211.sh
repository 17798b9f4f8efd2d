#!/usr/bin/env bash
# Run 211 (session 20): KernelBench 79's phase-fused forward on the H100: output rows by bulk copies or 16-byte vector
# stores (run 105 chose per mode on the H200: bulk for 16-bit and strict, vectors for TF32); the split-TF32 register-A
# forward with the 64x2 tile where 128 rows are picked (run 210: KernelBench 64 strict 4.33 vs 4.61 ms).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
timeout 100 python3 dev/python/ab_wgmma.py --kind fwd --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16 --budget-ms 40 \
  --variants "shipped,bulk=CONVT1D_FUSED_BULK:1,vec=CONVT1D_FUSED_BULK:0" --out $R/ab_79_bulk.json > $R/ab_79_bulk.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_79_bulk.txt | tail -4
timeout 150 python3 dev/python/ab_wgmma.py --kind fwd --shapes kernelbench_64,hifigan_up3,hifigan_up2,upsample_x8_bias,codec_dec_s5 --modes fp32_strict --budget-ms 30 \
  --variants "shipped,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,t64x2d=CONVT1D_WGMMA_RS_TILE:64x2+CONVT1D_WGMMA_RS_EPI:direct" --out $R/ab_x3_tile.json > $R/ab_x3_tile.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_x3_tile.txt | tail -5
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64,kernelbench_74 --modes fp32_strict --budget-ms 30 \
  --variants "shipped,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,t64x2d=CONVT1D_WGMMA_RS_TILE:64x2+CONVT1D_WGMMA_RS_EPI:direct" --out $R/ab_x3_tile_bi.json > $R/ab_x3_tile_bi.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_x3_tile_bi.txt | tail -2
