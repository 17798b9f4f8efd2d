#!/usr/bin/env bash
# Run 310 (session 28): where a synchronized KernelBench call's time goes (dev/python/kb_sync_probe.py): run 309's
# KernelBench evaluation read KernelBench 74 at 0.751 ms per synchronized call against 0.644 in the suite.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
timeout 200 python3 dev/python/kb_sync_probe.py 74 79 64 > $R/probe.txt 2>&1; echo "probe exit $? ($SECONDS s)"; cat $R/probe.txt | cut -c1-140 | head -150
