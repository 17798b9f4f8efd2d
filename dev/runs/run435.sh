#!/usr/bin/env bash
# Run 435 (session 47): why free weights save 10-12% on the stride-8 layers. Run 434's stall samples put the consumers'
# wait for a stage's data at 3.8%, so the saving may come from the TMA's shared-memory writes slowing the MMAs rather
# than from waiting for them. Probe d4 (dev/probes/weight_sink.patch) loads the weights on every fill, as library 427
# does, but on a barrier no consumer waits for; d1 (dev/probes/data_probe.patch, bit 1) loads them on a stage's first
# fill only. Outputs wrong by design. If d4 times as d1, the cost is the wait; if as library 427, the writes.
# Library 427 / d1 / d4 in alternating processes, 2 rounds; KernelBench 64 TF32 (weights per stage too) beside them.
# Before the call, on the host: bash dev/probes/build_probe.sh cur; ... d1 dev/probes/data_probe.patch
# CONVT1D_PROBE_DATA=1; ... d4 dev/probes/weight_sink.patch
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in cur d1 d4; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for v in d1 d4; do cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/l$v/; done
for i in 1 2; do for v in cur d1 d4; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 30 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes codec_dec_s8,hifigan_up1,kernelbench_64 --modes fp32 --variants shipped --out $R/sink_${v}_$i.json > $R/sink_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(codec|hifi|kernel)' $R/sink_${v}_$i.txt | awk '{print $1, $4, $7}' | tr '\n' ' ')"
  tar -C "$OUT" -czf "$OUT/results.tgz" r
done; done
