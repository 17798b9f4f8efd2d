#!/usr/bin/env bash
# Run 159 (session 16): final library (the fused forward's searched pitch for TF32 only) and the torch.func vmap rules:
# CUDA torch.func test, autograd (torch.func, forward AD) / compile tests on torch 2.11, fused forward tests; the
# committed forward results and the KernelBench evaluation.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
(cd /tmp && timeout 80 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "torch_func or forward_fused or eager" > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_cuda.txt | tail -6)
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_autograd.py $OLDPWD/tests/python/test_compile.py > $R/pytest_ag.txt 2>&1; echo "pytest autograd exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_ag.txt | tail -6)
timeout 150 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^kernelbench_(64|74|79) " $R/bench_fwd.txt | cut -c1-80
timeout 80 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -4 $R/kernelbench.txt
