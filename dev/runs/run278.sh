#!/usr/bin/env bash
# Run 278 (session 25, final library): test_wgmma_forward in TF32 and split TF32 (run 274 ran the 16-bit ones), and the
# fuzz in 16-bit with the register-A forward forced wherever it runs (the ldmatrix taps on every layer it takes).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 240 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and (tf32 or strict)" > $R/pytest_fwd32.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_fwd32.txt | tail -8)
CONVT1D_WGMMA_RS=1 timeout 130 python3 dev/python/fuzz.py --seed 50 --count 3000 --modes fp16,bf16 --max-elems 20000000 --max-flops 2e10 --time-budget 100 --out $R/fuzz_rs16.json > $R/fuzz_rs16.txt 2>&1; echo "fuzz exit $? ($SECONDS s): $(tail -1 $R/fuzz_rs16.txt)"; grep -E "^FAIL" $R/fuzz_rs16.txt | head -3 | cut -c1-500
