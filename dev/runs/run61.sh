#!/usr/bin/env bash
# Run 61: the host-side launch helper (launch_big_smem) that replaced three copies: every wgmma kernel path
# launched and checked (the whole wgmma test file), grad_weight sanitizer target.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 240 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
timeout 70 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight.py > $R/sanitizer_bw.txt 2>&1; echo "sanitizer bw exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_bw.txt
