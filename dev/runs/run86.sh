#!/usr/bin/env bash
# Run 86: host cost of the latency shapes' training step (cProfile + the C entry points alone).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for sm in "kernelbench_64_small fp32" "kernelbench_74_small fp32_strict" "single_utterance_x8 bf16"; do
  timeout 120 python3 dev/python/host_profile.py $sm >> $R/host.txt 2>&1; done
cat $R/host.txt
