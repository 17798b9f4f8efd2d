#!/usr/bin/env bash
# Run 252 (session 23): run 251's build had the tensor-store test inside the staged epilogue's store loop, and the
# bulk-copy form lost 14% with it (0.749 vs 0.659 ms). The tensor-store epilogue as its own instantiation (64-row TF32
# tiles only); KernelBench 74 TF32 A/B (ABBA, and again), the ytma and joint-tile tests.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_74 --modes fp32 \
  --variants "shipped,ytma=CONVT1D_WGMMA_RS_YTMA:1,shipped2=CONVT1D_WGMMA_RS_YTMA:0,ytma2=CONVT1D_WGMMA_RS_YTMA:1" --out $R/ab_ytma.json > $R/ab_ytma.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-400 $R/ab_ytma.txt | tail -2
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "ytma or (forward and rs and tf32)" > $R/pytest_ytma.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_ytma.txt | tail -6)
