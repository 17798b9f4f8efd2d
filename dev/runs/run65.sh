#!/usr/bin/env bash
# Run 65: validation of the stride-1 register-A grad_weight as shipped (2 chunks per stage where 3 stages
# fit, per-thread barrier bookkeeping): every Python test on the GPU, the sanitizer target, and an A/B of
# 2 / 3 / 4 chunks per stage on the shapes where more fit (KernelBench 74, C_out = 64).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 380 python3 -m pytest -q -x --timeout=120 -p no:cacheprovider $OLDPWD/tests/python 2>&1 | grep -E "passed|failed|Error|assert|^E " | tail -12) | tee $R/pytest_all.txt
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_rs.py > $R/sanitizer_bw_rs.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_bw_rs.txt
timeout 90 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_74 --modes fp32,bf16 \
  --variants cps2=CONVT1D_WGMMA_BW_RS_CPS:2,cps3=CONVT1D_WGMMA_BW_RS_CPS:3,cps4=CONVT1D_WGMMA_BW_RS_CPS:4 \
  --out $R/ab_bw_rs_cps.json 2>&1 | tail -3
