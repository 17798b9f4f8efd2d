#!/usr/bin/env bash
# Run 334 (session 31): tiles not measured before, by their switches (no build): codec_dec_s5 (stride 5: no adjacent-phase
# pairs, so TF32's 256x1 tile stores one element per store; 128x1 and 64-row tiles have room for the staged epilogue),
# every mode; single_utterance_x8's SS tile (112 blocks of 128x128 on 132 SMs, one per SM). Rotated ABBA with errors.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes codec_dec_s5 --modes fp32,fp16,bf16 \
  --variants shipped,t256x1=CONVT1D_WGMMA_RS_TILE:256x1,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,t64x2=CONVT1D_WGMMA_RS_TILE:64x2,t64x2rx=CONVT1D_WGMMA_RS_TILE:64x2+CONVT1D_WGMMA_RS_RX:1,t64x1=CONVT1D_WGMMA_RS_TILE:64x1 \
  --out $R/ab_s5_tiles.json > $R/ab_s5_tiles.txt 2>&1; echo "s5 exit $? ($SECONDS s)"; grep -E "^codec" $R/ab_s5_tiles.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes single_utterance_x8 --modes fp32,fp16,bf16 \
  --variants shipped,br64=CONVT1D_WGMMA_BR:64,br128=CONVT1D_WGMMA_BR:128,br256=CONVT1D_WGMMA_BR:256 \
  --out $R/ab_su_tiles.json > $R/ab_su_tiles.txt 2>&1; echo "su exit $? ($SECONDS s)"; grep -E "^single" $R/ab_su_tiles.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
