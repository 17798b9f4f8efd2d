#!/usr/bin/env bash
# Run 125 (session 13): the review fold (one phase_view for the three fused kernels' host setup, kernels.cuh): the
# fused / one-phase / gradient / graph tests of test_cuda.py, test_autograd.py, the three fused sanitizer targets,
# KernelBench 79 rows of the suite bench (forward and fwd+bwd) as a check that nothing moved.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py -k "fused or one_phase or grad or backward or graph" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
for t in san_fwd_fused san_bwd_input_fused san_bwd_weight_fused; do timeout 60 compute-sanitizer --tool memcheck python3 dev/python/$t.py > $R/$t.txt 2>&1; echo "$t exit $?"; grep -E "ERROR SUMMARY|san ok" $R/$t.txt | head -2; done
timeout 90 python3 -m convt1d.bench --backward --shapes kernelbench_79 --modes fp32,fp16,fp32_fwd_bwd,fp32_strict_fwd_bwd,bf16_fwd_bwd --budget-ms 60 --out $R/bench_kb79.json > $R/bench_kb79.txt 2>&1; echo "bench exit $?"; grep -E "^kernelbench_79" $R/bench_kb79.txt
