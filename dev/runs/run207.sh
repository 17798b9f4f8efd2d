#!/usr/bin/env bash
# Run 207 (session 20): the library after the cluster revert with the staged TF32 stride-1 epilogue: every wgmma
# test, test_cuda.py + test_autograd.py, sanitizer; A/B of KernelBench 79 on the register-A kernel (its layer takes
# the one-launch phase-fused mma.sync kernel today; the register-A forward computes the empty phase as zeros).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
timeout 100 python3 dev/python/ab_wgmma.py --kind fwd --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16 --budget-ms 30 \
  --variants "shipped,rs=CONVT1D_FWD_FUSED:0+CONVT1D_WGMMA_RS:1,rs_direct=CONVT1D_FWD_FUSED:0+CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_EPI:direct,rs128x2=CONVT1D_FWD_FUSED:0+CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_TILE:128x2" --out $R/ab_79rs.json > $R/ab_79rs.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_79rs.txt | tail -4
(cd /tmp && timeout 230 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -6)
(cd /tmp && timeout 90 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_cuda.txt | tail -4)
timeout 30 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
