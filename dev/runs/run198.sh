#!/usr/bin/env bash
# Run 198 (session 19): grad_input and grad_weight on two streams sharing the SMs (dev/python/concurrent_bwd_probe.py).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
timeout 100 python3 dev/python/concurrent_bwd_probe.py kernelbench_64 fp32,bf16 > $R/conc_64.txt 2>&1; echo "64 exit $? ($SECONDS s)"; cat $R/conc_64.txt | tail -2
timeout 60 python3 dev/python/concurrent_bwd_probe.py kernelbench_74 fp32 > $R/conc_74.txt 2>&1; echo "74 exit $? ($SECONDS s)"; tail -1 $R/conc_74.txt
timeout 60 python3 dev/python/concurrent_bwd_probe.py upsample_x8_bias fp32,bf16 > $R/conc_up8.txt 2>&1; echo "up8 exit $? ($SECONDS s)"; tail -2 $R/conc_up8.txt
