#!/usr/bin/env bash
# Run 109 (session 12): fused one-phase grad_input after the shared-memory fix (run 108: the window overlapped the
# A fragments outside strict fp32): its tests, the forward fused / one-phase / gradient tests and test_autograd.py,
# the sanitizer, the A/B on KernelBench 79 grad_input, then the committed forward+backward results (whole suite).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py -k "fused or one_phase or grad or backward" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -10)
timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_input_fused.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san.txt | head -4
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16 \
  --variants shipped,nofused=CONVT1D_BWD_INPUT_FUSED:0 --out $R/ab_bwd_input_fused.json > $R/ab.txt 2>&1; echo "ab exit $?"; cut -c1-260 $R/ab.txt
timeout 260 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^kernelbench_79 " $R/bench_bwd.txt | cut -c1-110
