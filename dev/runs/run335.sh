#!/usr/bin/env bash
# Run 335 (session 31): the Python tests on the GPU with the final package (the module's host path) and the final
# library's device code: test_cuda.py, test_autograd.py, test_compile.py, test_functional.py, test_errors.py,
# test_module.py, test_weight_cache.py, test_examples.py.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
cd tests/python
timeout 420 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py test_compile.py test_functional.py test_errors.py \
  test_module.py test_weight_cache.py test_examples.py > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -8 | cut -c1-250; tail -1 $R/tests.txt
