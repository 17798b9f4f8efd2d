#!/usr/bin/env bash
# Run 152 (session 15): test_wgmma_rs_grad_input_strided_taken with the fused one-phase grad_input off (run 151: it took
# kb79_odd_grad_y first, so the register-A kernel did not run there).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 280 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs_grad_input_strided_taken" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
