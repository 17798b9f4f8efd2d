#!/usr/bin/env bash
# Run 267 (session 24, after the review): the final commit's library (host code changed by the review: one_group(); the
# device PTX identical to run 266's) with the reviewed grouped tests (shared helpers), memcheck of the grouped paths.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 120 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grouped" > $R/pytest_grouped.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Error|assert" $R/pytest_grouped.txt | tail -6)
timeout 80 compute-sanitizer --tool memcheck python3 dev/python/san_grouped.py > $R/san_grouped.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_grouped.txt
