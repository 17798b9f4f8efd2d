#!/usr/bin/env bash
# Run 164 (session 16): the pairs' alignment test hoisted to one per tap: A/B on KernelBench 64 16-bit forward and
# grad_input (the adjoint forward takes pairs too), repeats; the wgmma forward / pairs / adjoint tests.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
V="shipped,perload=CONVT1D_WGMMA_RS_HOIST:0,shipped2,perload2=CONVT1D_WGMMA_RS_HOIST:0"
timeout 100 python3 dev/python/ab_wgmma.py --shapes kernelbench_64 --modes fp16,bf16 --budget-ms 150 --variants "$V" \
  --out $R/ab_fwd.json > $R/ab_fwd.txt 2>&1; echo "ab fwd exit $?"; cut -c1-330 $R/ab_fwd.txt | tail -2
timeout 80 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64 --modes fp16,bf16 --budget-ms 150 --variants "$V" \
  --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; echo "ab bi exit $?"; cut -c1-330 $R/ab_bi.txt | tail -2
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=180 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or adjoint or rs_pairs or rs_taken" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
