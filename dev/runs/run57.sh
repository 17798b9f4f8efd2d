#!/usr/bin/env bash
# Run 57: validation of the final kernel commit (d233c3f library): the whole wgmma test file, both sanitizer
# targets, the other CUDA tests.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 240 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
timeout 130 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer_rs.txt 2>&1; echo "sanitizer rs exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_rs.txt
timeout 70 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight.py > $R/sanitizer_bw.txt 2>&1; echo "sanitizer bw exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_bw.txt
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python -k "cuda and not wgmma" 2>&1 | tail -1) | tee $R/pytest_cuda.txt
