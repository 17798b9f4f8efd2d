#!/usr/bin/env bash
# Run 36: where the RS kernel's time goes (timing with epilogue stores / MMAs skipped), the 8-byte
# cp.async staging on the stride-1 grad_input, and the wgmma tests on the rewritten staging.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rscp or rs_grad_input or rs_taken" 2>&1 | tail -3) | tee $R/pytest_rscp.txt
timeout 200 python3 dev/python/rs_probe.py 2>&1 | tee $R/rs_probe.txt
