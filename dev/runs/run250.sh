#!/usr/bin/env bash
# Run 250 (session 23): run 249 put the carried rows' cost in the tail move (tile order alone: equal, 0.661 vs 0.659
# ms; the slowdown grew with the share of carried tiles). Tails moved by every thread, a vector each, after a barrier;
# A/B on KernelBench 74 TF32 and the carry tests.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
C=CONVT1D_WGMMA_RS_CARRY; G=CONVT1D_WGMMA_RS_CGROUP
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_74 --modes fp32 \
  --variants "shipped,nocarry=$C:0,g2=$G:2,g8=$G:8" --out $R/ab_carry_par.json > $R/ab_carry_par.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-400 $R/ab_carry_par.txt | tail -3
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 80 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k carry > $R/pytest_carry.txt 2>&1; echo "pytest carry exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_carry.txt | tail -6)
