#!/usr/bin/env bash
# Run 240 (session 22): the fused forward tests after their shared run helper (test refactor only; library as 020139c).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k fused > $R/pytest_fused.txt 2>&1; echo "pytest fused exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_fused.txt | tail -6)
