#!/usr/bin/env bash
# Run 155 (session 16): KernelBench 64 16-bit forward and grad_input (the adjoint forward) with resident weights and no
# ping-pong (the new default) against the old default (ping-pong, weights through the stages), ABBA with repeats;
# KernelBench 74 16-bit as a control; the wgmma forward / adjoint / taken / pairs tests on the new rule.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
W=CONVT1D_WGMMA_RS
V="shipped,old=${W}_PP:1+${W}_WRES:0,shipped2,old2=${W}_PP:1+${W}_WRES:0"
timeout 120 python3 dev/python/ab_wgmma.py --shapes kernelbench_64,kernelbench_74 --modes fp16,bf16 --budget-ms 150 --variants "$V" \
  --out $R/ab_fwd.json > $R/ab_fwd.txt 2>&1; echo "ab fwd exit $?"; cut -c1-330 $R/ab_fwd.txt | tail -4
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64 --modes fp16,bf16 --budget-ms 150 --variants "$V" \
  --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; echo "ab bi exit $?"; cut -c1-330 $R/ab_bi.txt | tail -2
(cd /tmp && timeout 250 python3 -m pytest -q -x --timeout=200 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or adjoint or rs_taken or rs_pairs" > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_wgmma.txt | tail -8)
