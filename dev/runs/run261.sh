#!/usr/bin/env bash
# Run 261 (session 24): the grouped strided grad_input on the register-A kernel, one launch per group on the group's
# view (WgArgs::yn / gn): the new test and the strided grad_input tests around it, memcheck, and grouped_g4's
# grad_input against the mma.sync kernel it replaces and cuDNN, in every mode.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
B=CONVT1D_BWD_INPUT
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --order rotate --budget-ms 60 --shapes grouped_g4 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,tc=$B:tc" --out $R/ab_gin_grouped.json > $R/ab_gin_grouped.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_gin_grouped.txt | tail -4
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_input" > $R/pytest_gin.txt 2>&1; echo "pytest grad_input exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Error|assert" $R/pytest_gin.txt | tail -6)
timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_input_grouped.py > $R/san_gin.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|rel_err" $R/san_gin.txt | tail -13
