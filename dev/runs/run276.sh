#!/usr/bin/env bash
# Run 276 (session 25, final library 58f0fb9's = the final commit's): the wgmma tests run 274 did not (every test but
# test_wgmma_forward, all modes), test_cuda.py + test_autograd.py, and the fuzz at large layers (seed 40).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 260 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "not test_wgmma_forward" > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_wgmma.txt | tail -8)
(cd /tmp && timeout 130 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_cuda.txt | tail -8)
timeout 140 python3 dev/python/fuzz.py --seed 40 --count 3000 --max-elems 20000000 --max-flops 2e10 --time-budget 110 --out $R/fuzz_s40.json > $R/fuzz_s40.txt 2>&1; echo "fuzz exit $? ($SECONDS s): $(tail -1 $R/fuzz_s40.txt)"; grep -E "^FAIL" $R/fuzz_s40.txt | head -3 | cut -c1-500
