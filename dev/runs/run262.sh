#!/usr/bin/env bash
# Run 262 (session 24): grouped layers on the register-A kernel, one launch per group on the group's view (forward and
# strided grad_input; WgArgs::xn / yn / gn): every wgmma test (the register-A kernels' row strides changed for every
# layer), test_cuda.py + test_autograd.py, memcheck of the grouped paths, and grouped_g4's forward against the
# mma.sync kernel it replaces (CONVT1D_WGMMA=0) and cuDNN.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
timeout 60 python3 dev/python/ab_wgmma.py --order rotate --budget-ms 60 --shapes grouped_g4 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,mma_sync=CONVT1D_WGMMA:0" --out $R/ab_fwd_grouped.json > $R/ab_fwd_grouped.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_fwd_grouped.txt | tail -4
timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_grouped.py > $R/san_grouped.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_grouped.txt; grep -c rel_err $R/san_grouped.txt
(cd /tmp && timeout 280 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Error|assert" $R/pytest_wgmma.txt | tail -6)
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_cuda.txt | tail -4)
