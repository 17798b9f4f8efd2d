#!/usr/bin/env bash
# Run 418 (session 44): how much of the TF32 register-A forward's time is its MMAs? A timing probe, not a library:
# dev/probes/tf32_mma_probe.patch on library 415's fwd_wgmma.cu, built for sm_90a with CONVT1D_PROBE_TF32_MMA=1 (the
# TF32 MMAs of odd k-steps dropped: the tensor time fp16 MMAs over the same channels would take, everything else as it
# is: stages, fragment loads, rounding, epilogue) and =2 (no TF32 MMA at all). Their outputs are wrong by design. The
# final library 415 and the two probes in alternating processes, 3 rounds; the fp16 rows are the control (the probe
# leaves 16-bit code alone).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 415 p1 p2; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l415 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for v in p1 p2; do cp /tmp/l415/libconvt1d_torch.so /tmp/l415/libconvt1d_torch.torch_version /tmp/l$v/; done
for i in 1 2 3; do for v in 415 p1 p2; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 80 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,kernelbench_74,hifigan_up1,upsample_x8_bias,codec_dec_s5,codec_dec_s8 --modes fp32,fp16 \
    --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $4, $7}' | tr '\n' ' ')"
done; done
