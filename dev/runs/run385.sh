#!/usr/bin/env bash
# Run 385 (written in session 37, not run: for the next session lent an H100). Library 381 (.carry/libconvt1d_381.so.xz)
# with the H200's defaults forced on (CONVT1D_DRAM_RICH=1) against the H100's own (=0), rotated in one process, 5 rounds,
# on every row the rules change: do the vocoder rules (256x1 at 1024 rows, 16-bit stride-2 direct stores) win on the H100
# too with today's kernel? The KernelBench 74/79 TF32 rules lost there in runs 204-205, 237 and 296 (expected: =0 wins).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_381.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
timeout 300 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 \
  --shapes kernelbench_74,kernelbench_79,hifigan_up2,hifigan_up3,hifigan_up4,grouped_g4,kernelbench_64 --modes fp32,fp16,bf16 \
  --variants h100=CONVT1D_DRAM_RICH:0,h200=CONVT1D_DRAM_RICH:1 --out $R/rich.json > $R/rich.txt 2>&1; echo "ab exit $? ($SECONDS s)"
sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g' $R/rich.txt | grep -E "^(kern|hifi|grou)"
for k in bwd_input; do timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind $k \
  --shapes kernelbench_74 --modes fp32 --variants h100=CONVT1D_DRAM_RICH:0,h200=CONVT1D_DRAM_RICH:1 --out $R/rich_$k.json > $R/rich_$k.txt 2>&1
  echo "$k exit $? ($SECONDS s)"; grep -E "^kern" $R/rich_$k.txt | sed 's/, err [0-9.e+-]*//g'; done
