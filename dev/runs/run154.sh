#!/usr/bin/env bash
# Run 154 (session 16): register-A forward configurations re-measured after sessions 9-16 (ABBA, one process per
# shape): KernelBench 64 with resident weights (16-bit: 96 KB; the stages then carry x only), tiles, ping-pong, the
# staged epilogue; KernelBench 74 TF32 / 16-bit likewise, and position pairs at dilation 3 now that the k-step skip
# halved the 16-bit A loads.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=5aeed67
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
W=CONVT1D_WGMMA_RS
timeout 170 python3 dev/python/ab_wgmma.py --shapes kernelbench_64 --modes fp16,bf16 --budget-ms 60 \
  --variants "shipped,wres=${W}_WRES:1,nopp=${W}_PP:0,wres_nopp=${W}_WRES:1+${W}_PP:0,t128x1=${W}_TILE:128x1,staged=${W}_EPI:staged,wres_staged=${W}_WRES:1+${W}_EPI:staged" \
  --out $R/ab_kb64_16.json > $R/ab_kb64_16.txt 2>&1; echo "ab64 exit $?"; cut -c1-400 $R/ab_kb64_16.txt | tail -3
timeout 120 python3 dev/python/ab_wgmma.py --shapes kernelbench_64 --modes fp32 --budget-ms 60 \
  --variants "shipped,t64x2=${W}_TILE:64x2,t128x1=${W}_TILE:128x1,t256x1=${W}_TILE:256x1,staged=${W}_EPI:staged,pp=${W}_PP:1" \
  --out $R/ab_kb64_32.json > $R/ab_kb64_32.txt 2>&1; echo "ab64 fp32 exit $?"; cut -c1-400 $R/ab_kb64_32.txt | tail -2
timeout 170 python3 dev/python/ab_wgmma.py --shapes kernelbench_74 --modes fp32,bf16 --budget-ms 60 \
  --variants "shipped,pairs=${W}_PAIRS:1,staged=${W}_EPI:staged,nopp=${W}_PP:0,nowres=${W}_WRES:0,t64x2=${W}_TILE:64x2,t128x1=${W}_TILE:128x1,t64x1=${W}_TILE:64x1" \
  --out $R/ab_kb74.json > $R/ab_kb74.txt 2>&1; echo "ab74 exit $?"; cut -c1-500 $R/ab_kb74.txt | tail -3
