#!/usr/bin/env bash
# Run 218 (session 21): one-phase layers (KernelBench 79) on the register-A kernel (convt1d_fwd_wgmma_one_phase,
# CONVT1D_WGMMA_RS_OP=1): its tests, the sanitizer on it, then the A/B against the shipped phase-fused kernel.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k one_phase > $R/pytest_op.txt 2>&1; echo "pytest op exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Error|assert" $R/pytest_op.txt | head -30)
CONVT1D_WGMMA_RS_OP=1 SAN_CASES=kb79ish SAN_TILES=auto,64x1,pp,bulk timeout 40 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_op.txt 2>&1; echo "san op exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_op.txt; grep kb79 $R/san_op.txt | head -20
timeout 150 python3 dev/python/ab_wgmma.py --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16 --budget-ms 150 \
  --variants "shipped,op=CONVT1D_WGMMA_RS_OP:1,op_nopp=CONVT1D_WGMMA_RS_OP:1+CONVT1D_WGMMA_RS_PP:0,op_64x1=CONVT1D_WGMMA_RS_OP:1+CONVT1D_WGMMA_RS_TILE:64x1" \
  --out $R/ab_op.json > $R/ab_op.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cat $R/ab_op.txt | tail -30
