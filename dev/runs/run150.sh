#!/usr/bin/env bash
# Run 150 (session 15): the fused one-phase gradients taken for small layers: the fused / gradient / autograd CUDA tests
# (the tests' own rule updated), then the forward+backward suite bench (committed results; the forward's device code is
# run 146's) with the final C++ library (ops' kernels in C++, built in run 148).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=cd7a1cc
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda"
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py -k "fused or grad or backward or autograd or eager" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 230 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt; grep -E "small|single" $R/bench_bwd.txt | cut -c1-80
