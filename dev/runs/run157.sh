#!/usr/bin/env bash
# Run 157 (session 16): final checks of this session's library: compute-sanitizer on the register-A forward (half-empty
# chunks on two k-steps, 16-bit resident weights without ping-pong: kb64ish, kb79ish, odd_rows take them); test_cuda.py
# whole, test_functional, test_examples, test_tools on the GPU; A/B of a late start for the second consumer warpgroup
# on KernelBench 64 16-bit (both warpgroups now share each tile, so their epilogues coincide).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
W=CONVT1D_WGMMA_RS
timeout 110 python3 dev/python/ab_wgmma.py --shapes kernelbench_64 --modes fp16,bf16 --budget-ms 120 \
  --variants "shipped,skew2us=${W}_SKEW:2000,skew6us=${W}_SKEW:6000,shipped2" --out $R/ab_skew.json > $R/ab_skew.txt 2>&1; echo "ab exit $?"; cut -c1-330 $R/ab_skew.txt | tail -2
SAN_TILES=auto,bulk timeout 150 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4
(cd /tmp && timeout 300 python3 -m pytest -q --timeout=200 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_functional.py $OLDPWD/tests/python/test_examples.py $OLDPWD/tests/python/test_tools.py > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
