#!/usr/bin/env bash
# Run 106 (session 12): the final library (fused one-phase forward as shipped): whole test_cuda.py and
# test_autograd.py, the sanitizer on the fused forward, then the committed forward results.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 240 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 80 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san.txt | head -4
timeout 170 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt; grep -E "kernelbench_79 " $R/bench_fwd.txt | head -8
