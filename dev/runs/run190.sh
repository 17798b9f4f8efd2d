#!/usr/bin/env bash
# Run 190 (session 19): is the register-A forward of the stride-8 vocoder layers bound by L2 -> SM traffic (the
# packed weights re-read per position tile)? Nsight Compute on upsample_x8 / hifigan_up1 TF32 and bf16, codec_dec_s8
# bf16 beside (425 TFLOP/s, the best of them).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
for c in "upsample_x8_bias fp32" "upsample_x8_bias bf16" "hifigan_up1 bf16" "codec_dec_s8 bf16"; do
  set -- $c
  timeout 100 ncu --profile-from-start off -k regex:"fwd_wgmma" --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
    python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$1_$2.txt 2>&1; echo "ncu $1 $2 exit $? ($SECONDS s)"
  grep -E "Duration|Memory Throughput|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Registers Per|Grid Size|Block Size|Achieved Occupancy|Executed Ipc A" $R/ncu_$1_$2.txt | head -14
done
