#!/usr/bin/env bash
# Run 316 (session 29): where single_utterance_x8's per-call time goes (dev/python/latency_probe.py: eager calls back
# to back against CUDA-graph replay, and the kernels of one call) for convt1d plain / cached and cuDNN; and KernelBench
# 64 in 16-bit alone, three processes in a row (its 2.43-2.84x spread across suite runs).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_cached_op is not None, \"C++ cached op not loaded\"" || { tail -20 $R/build_op.txt; exit 1; }
timeout 150 python3 dev/python/latency_probe.py --modes fp32,fp16,bf16 --out $R/latency_su.json 2>&1 | tee $R/latency_su.txt | cut -c1-400; echo "probe exit ($SECONDS s)"
for i in 1 2 3; do
  timeout 60 python3 -m convt1d.bench --shapes kernelbench_64 --modes fp16,bf16 --budget-ms 100 --out $R/kb64_$i.json > $R/kb64_$i.txt 2>&1
  grep -E "^kernelbench_64 " $R/kb64_$i.txt | cut -c1-90
done
echo "done ($SECONDS s)"
