#!/usr/bin/env bash
# Run 55: after the epilogue's fast loop and the rs_pays change: RS / taken / heuristic tests, sanitizer,
# A/B (shipped vs the previous choices) on KernelBench 64/74/79 and hifigan_up3/up4.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs or heuristic or adjoint or strided or taken" 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer_rs.txt 2>&1; echo "sanitizer rs exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_rs.txt
timeout 150 python3 dev/python/ab_wgmma.py --shapes kernelbench_64,kernelbench_74,kernelbench_79,hifigan_up3,hifigan_up4 --modes fp32,bf16,fp32_strict --variants "shipped,nopp=CONVT1D_WGMMA_RS_PP:0,rs0=CONVT1D_WGMMA_RS:0,shipped2" --budget-ms 30 --out $R/ab_final.json 2>&1 | tee $R/ab_final.txt | cut -c1-500
