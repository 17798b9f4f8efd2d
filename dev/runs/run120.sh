#!/usr/bin/env bash
# Run 120 (session 13): the final library's CUDA tests: test_cuda.py and test_autograd.py whole, the grad_weight tests of
# test_cuda_wgmma.py, and the three fused kernels' sanitizer targets.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 330 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -12)
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight" > $R/pytest_wg.txt 2>&1; echo "pytest wgmma exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_wg.txt | tail -5)
for t in san_fwd_fused san_bwd_input_fused san_bwd_weight_fused; do timeout 60 compute-sanitizer --tool memcheck python3 dev/python/$t.py > $R/$t.txt 2>&1; echo "$t exit $?"; grep -E "ERROR SUMMARY|san ok" $R/$t.txt | head -2; done
