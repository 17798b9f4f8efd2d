#!/usr/bin/env bash
# Run 111 (session 12): final check after the review fold (one persistent-launch helper for both fused kernels;
# 16-bit grad_input window cut to C_out <= 64, which kept sm_80 from spilling): the fused forward and grad_input
# tests, the one-phase / gradient / backward tests and test_autograd.py, both sanitizer targets, KernelBench 79 rows.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py -k "fused or one_phase or grad or backward" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -10)
for t in san_fwd_fused san_bwd_input_fused; do timeout 90 compute-sanitizer --tool memcheck python3 dev/python/$t.py > $R/$t.txt 2>&1; echo "$t exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/$t.txt | head -3; done
timeout 120 python3 -m convt1d.bench --backward --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16,fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input --budget-ms 100 --out $R/bench_kb79.json > $R/bench.txt 2>&1; echo "bench exit $?"; grep -E "^kernelbench" $R/bench.txt | cut -c1-110
