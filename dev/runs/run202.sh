#!/usr/bin/env bash
# Run 202 (session 19, review at stop): the three grad_input "taken" tests after their common set-up became one
# helper (grad_input_profiled), on the final library.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
bash scripts/build_torch_op.sh .carry > /dev/null 2>&1; echo "op build exit $?"
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "ksplit or grad_input_taken or strided_taken" 2>&1 | tail -3)
