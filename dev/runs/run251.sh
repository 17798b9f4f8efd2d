#!/usr/bin/env bash
# Run 251 (session 23): carried rows lost (runs 248-250: whole 128-byte lines are not what holds KernelBench 74 TF32).
# Does the way the tile leaves? The joint tile sent by 8 TMA tensor stores of 64 rows x 128 bytes from one thread
# (WgArgs::ytma, CONVT1D_WGMMA_RS_YTMA=1) against 64 bulk copies of 1 KB rows; the ytma tests, then the whole wgmma file
# (every register-A kernel takes the new map parameter).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_74 --modes fp32 \
  --variants "shipped,ytma=CONVT1D_WGMMA_RS_YTMA:1,shipped2=CONVT1D_WGMMA_RS_YTMA:0" --out $R/ab_ytma.json > $R/ab_ytma.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-400 $R/ab_ytma.txt | tail -2
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 60 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k ytma > $R/pytest_ytma.txt 2>&1; echo "pytest ytma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_ytma.txt | tail -6)
(cd /tmp && timeout 280 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -4)
