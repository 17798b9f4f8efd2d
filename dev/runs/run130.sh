#!/usr/bin/env bash
# Run 130 (session 14): the latency shapes' training step (module forward + backward) under the profiler, ours and
# cuDNN's: GPU time per step against wall time per step (which of them binds), and the kernels behind it.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 300 python3 dev/python/profile_latency_step.py kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8 fp32,fp32_strict,bf16 2>&1 | grep -v Warn | tee $R/latency_step.txt
