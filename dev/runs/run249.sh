#!/usr/bin/env bash
# Run 249 (session 23): run 248 had carried rows over whole runs per block 10% slower on KernelBench 74 TF32 (0.741 vs
# 0.674 ms). Is it the order (each block its own run: 132 places written at once) or the carry? Tile groups
# (WgArgs::cgroup) with and without carried rows; then the carry tests and the whole wgmma test file.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
C=CONVT1D_WGMMA_RS_CARRY; G=CONVT1D_WGMMA_RS_CGROUP
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_74 --modes fp32 \
  --variants "shipped,nocarry=$C:0,runs_nocarry=$C:0+$G:0,g2=$G:2,g4=$G:4,g8=$G:8,g4_nocarry=$C:0+$G:4,g16=$G:16" \
  --out $R/ab_cgroup.json > $R/ab_cgroup.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-400 $R/ab_cgroup.txt | tail -3
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 80 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k carry > $R/pytest_carry.txt 2>&1; echo "pytest carry exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_carry.txt | tail -6)
(cd /tmp && timeout 280 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -4)
