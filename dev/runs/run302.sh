#!/usr/bin/env bash
# Run 302 (session 27, final library 1882709): the KernelBench-style evaluation (kernelbench/evaluate.py: ModelNew
# against Model, CUDA events around each synchronized call) -> bench/results/h100_kernelbench.json; KernelBench 74's
# TF32 forward now takes the rounded input boxes (RX).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
timeout 120 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -6 $R/kernelbench.txt | cut -c1-220
