#!/usr/bin/env bash
# Run 192 (session 19): Nsight Compute survey of the kernels behind the targets still open (KernelBench forward and
# gradients, codec_dec_s5, hifigan_up3, upsample_x8's gradients): throughputs and ncu's access-pattern hints, looking
# for more stores or loads that use part of each sector (run 190 found one: fixed in run 191).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
for c in "kernelbench_64 fwd fp32" "kernelbench_74 fwd fp32" "kernelbench_79 fwd fp32" "kernelbench_64 bwd_input fp32" "kernelbench_64 bwd_weight fp32" \
         "kernelbench_74 bwd_input fp32" "kernelbench_74 bwd_weight fp32" "codec_dec_s5 fwd bf16" "codec_dec_s5 bwd_input bf16" "codec_dec_s5 bwd_weight bf16" \
         "hifigan_up3 fwd bf16" "upsample_x8_bias bwd_input bf16" "upsample_x8_bias bwd_weight bf16"; do
  set -- $c
  f=$R/ncu_$1_$2_$3.txt
  timeout 60 ncu --profile-from-start off -k regex:"rs_kernel|wgmma_kernel|fused|bwd_weight|phase|planes" --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section LaunchStats \
    python3 dev/python/profile_case.py $1 $2 $3 > $f 2>&1; echo "== $1 $2 $3 exit $? ($SECONDS s)"
  grep -E "^  [a-z_ ]*void|Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|bytes transmitted per sector" $f | sed 's/(CUtensorMap.*//;s/  */ /g' | cut -c1-150
done
