#!/usr/bin/env bash
# Run 142 (session 15): the tests behind the committed results, through the C++ eager op (built for this torch in
# run 141, carried in .carry): test_cuda.py whole (the suite, fused, strided, graph, compile tests now reach the
# kernels through the C++ op), test_functional.py, test_examples.py, test_tools.py.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
python3 -c "import convt1d; from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'; print('eager op', _ops.eager_op)"
(cd /tmp && timeout 540 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_functional.py $OLDPWD/tests/python/test_examples.py $OLDPWD/tests/python/test_tools.py > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
