#!/usr/bin/env bash
# Run 160 (session 16): the fused forward's pitch search cached (run 159's KernelBench evaluation of 79 paid ~0.3 ms of
# host time per call for it): KernelBench evaluation, fused forward tests, the latency and KernelBench forward rows.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
timeout 80 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -4 $R/kernelbench.txt
(cd /tmp && timeout 80 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "forward_fused" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -4)
timeout 150 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^kernelbench|^single" $R/bench_fwd.txt | cut -c1-80
