#!/usr/bin/env bash
# Runs 184-185 (session 18, the last device time; commands given directly to the warm machine of run 183, library
# ac49303 with CONVT1D_WGMMA_BW_RS_TMA=1, which is the default since the next commit): the forward+backward suite
# with the grad_weight's TMA boxes (bench/results/h100_fwd_bwd_tma.json), then the grad_weight and autograd tests.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=${1:-ac49303+TMA1} CONVT1D_WGMMA_BW_RS_TMA=1
mkdir -p $OUT/r
# run 184
timeout 140 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_weight,bf16_bwd_weight --budget-ms 40 --out $OUT/r/bench_bwd_tma.json > $OUT/r/bench_bwd_tma.txt 2>&1; echo "bench exit $?"
# run 185
(cd /tmp && timeout 75 python3 -m pytest -q -x --timeout=30 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py $OLDPWD/tests/python/test_autograd.py -k "grad_weight or autograd or gradcheck" 2>&1 | tail -2)
