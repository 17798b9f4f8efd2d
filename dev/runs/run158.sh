#!/usr/bin/env bash
# Run 158 (session 16): the fused one-phase forward's output tile pitch chosen against shared-memory bank conflicts of
# the result stores (KernelBench 79 TF32: 264 -> 268 elements, two wavefronts per store -> one), A/B against the old
# pitch with repeats; fused forward / grad_weight tests, sanitizer; the torch.func / forward-AD / compile / eager tests
# on the GPU machine's torch (2.11).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
V="shipped,oldpitch=CONVT1D_FUSED_YP:0,shipped2,oldpitch2=CONVT1D_FUSED_YP:0"
timeout 120 python3 dev/python/ab_wgmma.py --shapes kernelbench_79 --modes fp32,fp32_strict,bf16 --budget-ms 150 --variants "$V" \
  --out $R/ab_yp.json > $R/ab_yp.txt 2>&1; echo "ab exit $?"; cut -c1-330 $R/ab_yp.txt | tail -3
timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=150 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "fused" > $R/pytest_fused.txt 2>&1; echo "pytest fused exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_fused.txt | tail -6)
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_autograd.py $OLDPWD/tests/python/test_compile.py $OLDPWD/tests/python/test_errors.py > $R/pytest_ag.txt 2>&1; echo "pytest autograd exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_ag.txt | tail -6)
