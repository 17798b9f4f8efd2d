#!/usr/bin/env bash
# Run 277 (session 25): run 276's 18 failures were the tests' reading of kernel names (rs_pairs_ran looked for PAIRS at
# the name's end, where session 24's VIEW argument now sits; the kernels with pairs ran): the same tests with
# rs_kernel_args, which reads every template argument.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs_pairs or rs_grad_input_taken or rs_kernel_args" > $R/pytest_names.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_names.txt | tail -8)
