#!/usr/bin/env bash
# Run 243 (session 22): one staged tile for both warpgroups by default in the TF32 stride-1 forward (WgArgs::joint):
# A/B against the warpgroups' own tiles (KernelBench 74 / 64 forward), and forced on the stride-1 grad_input (the
# adjoint forward, not taken by default); the whole wgmma test file, test_cuda.py + test_autograd.py.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_74,kernelbench_64 --modes fp32,fp32_strict \
  --variants "shipped,own=CONVT1D_WGMMA_RS_JOINT:0" --out $R/ab_joint_fwd.json > $R/ab_joint_fwd.txt 2>&1; echo "ab fwd exit $? ($SECONDS s)"; cut -c1-250 $R/ab_joint_fwd.txt | tail -4
timeout 120 python3 dev/python/ab_wgmma.py --kind bwd_input --budget-ms 80 --shapes kernelbench_74,kernelbench_64 --modes fp32 \
  --variants "shipped,joint=CONVT1D_WGMMA_RS_JOINT:1" --out $R/ab_joint_bi.json > $R/ab_joint_bi.txt 2>&1; echo "ab bi exit $? ($SECONDS s)"; cut -c1-250 $R/ab_joint_bi.txt | tail -2
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 260 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -4)
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_cuda.txt | tail -4)
timeout 40 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
