#!/usr/bin/env bash
# Run 412 (session 42, the first H100 since session 36): library 411 (.carry/libconvt1d_411.so.xz). 1) Run 385's A/B,
# not run until now: the H200's defaults forced on (CONVT1D_DRAM_RICH=1) against the H100's own (=0), rotated in one
# process, 5 rounds, on the rows those rules change (KernelBench 64 TF32 with =1 also takes the lean TF32 128x2 kernel,
# unmeasured on the H100). 2) The H100 records with library 411: forward suite and the KernelBench evaluation.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_411.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
timeout 260 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 \
  --shapes kernelbench_74,kernelbench_79,hifigan_up2,hifigan_up3,hifigan_up4,grouped_g4,kernelbench_64,hifigan_up1,upsample_x8,codec_dec_s8,codec_dec_s5 --modes fp32,fp16,bf16 \
  --variants h100=CONVT1D_DRAM_RICH:0,h200=CONVT1D_DRAM_RICH:1 --out $R/rich.json > $R/rich.txt 2>&1; echo "ab exit $? ($SECONDS s)"
sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g' $R/rich.txt | grep -E "^(kern|hifi|grou|upsa|code)" | cut -c1-200
timeout 45 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind bwd_input \
  --shapes kernelbench_74,kernelbench_64 --modes fp32 --variants h100=CONVT1D_DRAM_RICH:0,h200=CONVT1D_DRAM_RICH:1 --out $R/rich_bwd_input.json > $R/rich_bwd_input.txt 2>&1
echo "bwd_input exit $? ($SECONDS s)"; grep -E "^kern" $R/rich_bwd_input.txt | sed 's/, err [0-9.e+-]*//g' | cut -c1-200
timeout 120 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)) " $R/bench_fwd.txt | cut -c1-90
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-200
