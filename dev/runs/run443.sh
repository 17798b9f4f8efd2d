#!/usr/bin/env bash
# Run 443 (session 49): is run 441's spread against run 428 the card or the library? Run 441 (library 440, an H100) read
# KernelBench 64 TF32 3.6% faster than run 428 (library 427) but strict 6.0%, fp16 2.8%, upsample_x8 fp16 7.9%,
# hifigan_up2 fp16 7.9% and codec_dec_s8 TF32 5.4% slower, while library 440 differs from 427 in host code for layers
# under 2^24 multiply-adds only. Libraries 427 / 440 in alternating processes on one machine, 2 rounds, the forward bench
# on the rows that moved most (cuDNN beside them), with the card's clocks and throttle reasons before and after.
# Before the call, on the host: .carry/libconvt1d_cur.so.xz (library 427: REV=f5d20e6 bash dev/probes/build_probe.sh cur)
# and ..._l440.so.xz (bash dev/probes/build_probe.sh l440).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
nvidia-smi -q -d CLOCK,POWER,PERFORMANCE,TEMPERATURE > $R/smi_before.txt 2>&1
for v in cur l440; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/ll440/
S=kernelbench_64,kernelbench_74,upsample_x8_bias,hifigan_up2,codec_dec_s8
for i in 1 2; do for v in cur l440; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 60 python3 -m convt1d.bench --shapes $S --budget-ms 60 \
    --out $R/fwd_${v}_$i.json > $R/fwd_${v}_$i.txt 2>&1
  echo "$v round $i exit $? ($SECONDS s)"
  grep -E "^(kernelbench|upsample|hifigan|codec)" $R/fwd_${v}_$i.txt | awk '{print "  ", $1, $2, $3, $4, $5}'
  tar -C "$OUT" -czf "$OUT/results.tgz" r
done; done
nvidia-smi -q -d CLOCK,POWER,PERFORMANCE,TEMPERATURE > $R/smi_after.txt 2>&1
grep -E "Graphics|SM  |Memory  |Power Draw|GPU Current Temp|Active|Idle|Slowdown" $R/smi_after.txt | head -30
