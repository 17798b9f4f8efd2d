#!/usr/bin/env bash
# Run 85: where the latency shapes' per-call time goes (host enqueue vs GPU kernels), ours vs cuDNN;
# kernel lists of the 16-bit gradients below cuDNN (KernelBench 79 grad_weight, codec_dec_s8).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 300 python3 dev/python/latency_probe.py > $R/latency.txt 2>&1; echo "probe exit $?"
for k in bwd_weight bwd_input; do for s in kernelbench_79 codec_dec_s8 hifigan_up1; do
  python3 dev/python/profile_case.py $s $k bf16 times >> $R/times.txt 2>&1; done; done
cat $R/times.txt
