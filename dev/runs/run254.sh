#!/usr/bin/env bash
# Run 254 (session 23, the last ~5 minutes of device time): the vocoder layers nearest their 2x (upsample_x8 16-bit
# 1.93-1.97x, hifigan_up1 1.75-1.90x) against the tile choices measured long ago on an H200 (run 51: 256x1 for 2048
# rows): the register-A 128x2 tile with and without ping-pong, the staged epilogue, the SS kernel's tiles; and the
# register-A forward tests with the 128x2 tile forced everywhere it applies (should a heuristic change follow).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
T=CONVT1D_WGMMA_RS_TILE
timeout 110 python3 dev/python/ab_wgmma.py --budget-ms 60 --shapes upsample_x8_bias,hifigan_up1 --modes fp32,fp16,bf16 \
  --variants "shipped,t128x2=$T:128x2,t128x2_pp=$T:128x2+CONVT1D_WGMMA_RS_PP:1,t128x2_nopp=$T:128x2+CONVT1D_WGMMA_RS_PP:0,staged=CONVT1D_WGMMA_RS_EPI:staged,wg256,wg128x2" \
  --out $R/ab_voc_tiles.json > $R/ab_voc_tiles.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-520 $R/ab_voc_tiles.txt | tail -7
(cd /tmp && CONVT1D_WGMMA_RS_TILE=128x2 timeout 110 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and rs" > $R/pytest_t128x2.txt 2>&1; echo "pytest 128x2 exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_t128x2.txt | tail -4)
