#!/usr/bin/env bash
# Run 235 (session 22): the phase-fused forward's 256-position tile as the default where it fits and fills the SMs
# twice (128 otherwise): tests (test_cuda.py with the new per-tile test, test_autograd.py, the wgmma file's one-phase
# and heuristic tests), sanitizer with 256 forced, KernelBench 79 A/B (shipped / 128) in every mode; the store probe
# with rows on 128-byte boundaries.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/sp dev/cuda/store_probe79.cu && /tmp/sp > $R/store_probe79.txt; grep -E "copy|fused-like|BT 256|128-byte" $R/store_probe79.txt
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,bt128=CONVT1D_FUSED_BT:128,fused256=CONVT1D_FWD_FUSED:1+CONVT1D_FUSED_BT:256" --out $R/ab_bt.json > $R/ab_bt.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-220 $R/ab_bt.txt | tail -5
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_cuda.txt | tail -6)
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "one_phase or fused or heuristic" > $R/pytest_wg.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_wg.txt | tail -6)
CONVT1D_FUSED_BT=256 timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid|rel" $R/san.txt | head -4
