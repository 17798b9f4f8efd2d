#!/usr/bin/env bash
# Run 22: Nsight Compute on the SS wgmma forward (256-row tiles) for two compute-bound layers, to see
# what bounds it at ~300 TFLOP/s; then the shipped heuristic's picks (dev/python/ab_wgmma.py).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
for c in "upsample_x8_bias fp16" "codec_dec_s8 fp16" "upsample_x8_bias fp32"; do
  set -- $c
  CONVT1D_WGMMA=1 CONVT1D_WGMMA_BR=256 timeout 150 ncu --profile-from-start off -k regex:wgmma \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    --section Occupancy --section LaunchStats --metrics lts__t_bytes.sum.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__m_xbar2l1tex_read_bytes.sum.per_second \
    python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$1_$2.txt 2>&1
  echo "== $1 $2"; grep -E "wgmma_(transpose|pack)_kernel|fwd_wgmma_kernel|Duration|Throughput|lts__t_bytes|hmma|xbar2l1tex|Stall|Issued Warp|No Eligible|Registers|Achieved Occ" $R/ncu_$1_$2.txt | cut -c1-150 | head -60
done
S=upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s8,codec_dec_s5,single_utterance_x8
timeout 150 python3 dev/python/ab_wgmma.py --shapes $S --variants mma_sync,shipped --out $R/ab_shipped.json 2>&1 | tee $R/ab_shipped.txt | cut -c1-300
