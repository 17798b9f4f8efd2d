#!/usr/bin/env bash
# Run 421 (session 45): what KernelBench 64 TF32's data movement costs, by timing probes (not libraries):
# dev/probes/data_probe.patch on library 415's fwd_wgmma.cu, built for sm_90a with CONVT1D_PROBE_DATA = 1 (a stage's
# weights loaded on its first fill only, later fills keep stale ones: the time if weights were free, i.e. resident),
# 2 (the fast direct epilogue stores nothing: KernelBench 64's stores); 3 (both) was built and not carried (the 64 MiB
# limit). Outputs wrong by design. Library 415 and the two probes in alternating processes, 2 rounds (a short run: little
# device time was left). KernelBench 74 (resident weights, staged epilogue on the H100) is untouched by both: the
# control; the stride-8 layers (weights per stage, phase-merged stores) see probe 1 only.
# Before the call, on the host (~5 min each):
#   bash dev/probes/build_probe.sh cur
#   bash dev/probes/build_probe.sh d1 dev/probes/data_probe.patch CONVT1D_PROBE_DATA=1
#   bash dev/probes/build_probe.sh d2 dev/probes/data_probe.patch CONVT1D_PROBE_DATA=2
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lcur && xz -dc .carry/libconvt1d_cur.so.xz > /tmp/lcur/libconvt1d.so
for v in d1 d2; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for v in d1 d2; do cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/l$v/; done
for i in 1 2; do for v in cur d1 d2; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 50 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes kernelbench_64,kernelbench_74,hifigan_up1,codec_dec_s8 --modes fp32 \
    --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $4, $7}' | tr '\n' ' ')"
done; done
