#!/usr/bin/env bash
# Run 413 (session 42, H100): library 411. 1) Run 412's forward A/B again with the suite's names (upsample_x8_bias; run
# 412 stopped at the unknown name): the H200's defaults (CONVT1D_DRAM_RICH=1) against the H100's own (=0), rotated, 5
# rounds. 2) Run 412 found KernelBench 74's TF32 grad_input (a stride-1 forward on the adjoint weights, 32 rows) 0.708 ms
# with =1 against 0.982 with =0: which of the three choices =1 makes there pays (direct stores, no RX, the lean kernel),
# forward and grad_input, KernelBench 74 and 64.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_411.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
ab() { # name timeout kind shapes modes variants
  timeout $2 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind $3 --shapes $4 --modes $5 \
    --variants $6 --out $R/$1.json > $R/$1.txt 2>&1; echo "$1 exit $? ($SECONDS s)"
  grep -E "^(kern|hifi|grou|upsa|code)" $R/$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g' | cut -c1-220; }
V="h100=CONVT1D_DRAM_RICH:0,h200=CONVT1D_DRAM_RICH:1,direct_norx=CONVT1D_WGMMA_RS_EPI:direct+CONVT1D_WGMMA_RS_RX:0"
V="$V,direct_norx_full=CONVT1D_WGMMA_RS_EPI:direct+CONVT1D_WGMMA_RS_RX:0+CONVT1D_WGMMA_RS_LEAN:0,staged_norx=CONVT1D_WGMMA_RS_RX:0"
ab parts_gi 100 bwd_input kernelbench_74,kernelbench_64 fp32 $V
ab parts_fwd 100 fwd kernelbench_74,kernelbench_64 fp32 $V
ab rich 300 fwd kernelbench_74,kernelbench_79,hifigan_up2,hifigan_up3,hifigan_up4,grouped_g4,kernelbench_64,hifigan_up1,upsample_x8_bias,codec_dec_s8,codec_dec_s5 \
  fp32,fp16,bf16 h100=CONVT1D_DRAM_RICH:0,h200=CONVT1D_DRAM_RICH:1
