#!/usr/bin/env bash
# Run 298 (session 27): where the rounded TF32 boxes go wrong (run 297: C_out < 64 layers at 64 rows), dev/python/rx_probe.py.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/rx_probe.py 2>&1 | tee $R/rx_probe.txt
