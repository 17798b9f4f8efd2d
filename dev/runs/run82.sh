#!/usr/bin/env bash
# Run 82: the final state of session 10 (library 3a39937): the whole test_cuda_wgmma.py, test_cuda.py and
# test_autograd.py on the H200, and compute-sanitizer on the register-A forward target (shipped + bulk).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for f in test_cuda_wgmma test_cuda test_autograd; do
  (cd /tmp && timeout 240 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/$f.py > $R/pytest_$f.txt 2>&1; echo "$f exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_$f.txt | tail -6)
done
SAN_TILES=auto,bulk timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4; grep -c "grad_x" $R/san.txt
