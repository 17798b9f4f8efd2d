#!/usr/bin/env bash
# Run 151 (session 15): test_cuda_wgmma.py's gradient tests after they turn the fused one-phase gradients off where they
# test the other kernels (the fused ones take kb79_like / kb74_like first since cd7a1cc).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 280 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
