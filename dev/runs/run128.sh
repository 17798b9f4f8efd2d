#!/usr/bin/env bash
# Run 128 (session 14): where the 16-bit vocoder GEMMs lose time. Kernel list per call (torch.profiler) for
# codec_dec_s8 / upsample_x8 forward and codec_dec_s8 grad_input / grad_weight; Nsight Compute of the register-A
# forward (is it L2-bound on the weight boxes, 64 KB of weights per 17 KB of input per stage at 256 rows?);
# tile A/B (256x1 shipped, 128x2, the SS kernel) on codec_dec_s8 / upsample_x8 / hifigan_up1 fp16.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
for c in "codec_dec_s8 fwd fp16" "upsample_x8_bias fwd fp16" "codec_dec_s8 bwd_input bf16" "codec_dec_s8 bwd_weight bf16"; do
  echo "== $c"; timeout 60 python3 dev/python/profile_case.py $c times 2>&1 | tail -8
done | tee $R/times.txt
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy"
for c in "codec_dec_s8 fwd fp16" "upsample_x8_bias fwd fp16"; do
  set -- $c
  timeout 120 ncu --clock-control none --profile-from-start off -k regex:"fwd_wgmma_rs_kernel" --launch-count 1 $S python3 dev/python/profile_case.py $c > $R/ncu_$1_$2_$3.txt 2>&1; echo "ncu $c exit $?"
done
for f in $R/ncu_*.txt; do echo "== $f"; grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Memory Throughput|Issue Slots Busy|No Eligible|Registers Per|Mem Busy|Max Bandwidth|Warp Cycles Per Issued|L2 Hit|Grid Size|Tensor|Shared Memory Configuration Size" $f | head -24; grep -iE "stall" $f | head -8; done
timeout 200 python3 dev/python/ab_wgmma.py --kind fwd --shapes codec_dec_s8,upsample_x8_bias,hifigan_up1 --modes fp16 \
  --variants t256=CONVT1D_WGMMA_RS_TILE:256x1,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,ss256=CONVT1D_WGMMA_RS:0+CONVT1D_WGMMA_BR:256,shipped \
  --out $R/ab_tiles.json 2>&1 | tail -16
