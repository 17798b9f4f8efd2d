#!/usr/bin/env bash
# Run 127 (session 13): after the stop review (each_acc helper in the fused grad_weight, one rule statement for the fused
# gradient tests): the fused / graph tests of test_cuda.py and the fused grad_weight sanitizer target.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "fused or graph" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -5)
timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_fused.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok" $R/san.txt | head -2
