#!/usr/bin/env bash
# Run 162 (session 16): the register-A kernel's gradient uses on the final library (the k-step loop was restructured
# for every instantiation, the strided grad_input's BI one included): test_cuda_wgmma.py's gradient tests.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 400 python3 -m pytest -q --timeout=300 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad or units or unaligned" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
