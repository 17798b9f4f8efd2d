#!/usr/bin/env bash
# Run 113 (session 12): final check of the final source (the persistent-launch cache per device, as fwd_tc.cu keeps its
# shared-memory attribute; a CUDA-graph test of both fused kernels): the fused forward and grad_input
# tests, the one-phase / gradient / backward / graph tests and test_autograd.py, both sanitizer targets.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py -k "fused or one_phase or grad or backward or graph" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -10)
for t in san_fwd_fused san_bwd_input_fused; do timeout 90 compute-sanitizer --tool memcheck python3 dev/python/$t.py > $R/$t.txt 2>&1; echo "$t exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/$t.txt | head -3; done
