#!/usr/bin/env bash
# Run 245 (session 22): the joint staged tile's host rule after review (not where ping-pong is forced): every wgmma
# test, and KernelBench 74 TF32 shipped / own tiles / ping-pong forced (same choices as run 243 expected).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_74 --modes fp32 \
  --variants "shipped,own=CONVT1D_WGMMA_RS_JOINT:0,pp=CONVT1D_WGMMA_RS_PP:1" --out $R/ab_joint_pp.json > $R/ab_joint_pp.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_joint_pp.txt | tail -1
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 280 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -4)
