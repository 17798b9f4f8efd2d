#!/usr/bin/env bash
# Run 66: up to 3 chunks per stage by default (run 65: KernelBench 74 best at 3); every GPU test file on its
# own (run 65's single pytest call overran its limit and printed nothing), and KernelBench 64 A/B: 2 chunks
# in 3 stages (default there) against 3 chunks in 2 stages.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 130 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_64,kernelbench_74 --modes fp32,bf16 \
  --variants shipped,cps3s2=CONVT1D_WGMMA_BW_RS_CPS:3+CONVT1D_WGMMA_BW_RS_STAGES2:1 \
  --out $R/ab_bw_rs_stages.json 2>&1 | tail -4
for ft in test_cuda_wgmma.py:200 test_cuda.py:170 test_autograd.py:60 test_compile.py:60; do
  f=${ft%%:*}; t=${ft##*:}
  (cd /tmp && timeout $t python3 -m pytest -q -x --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/$f > $R/pytest_$f.txt 2>&1; echo "$f exit $?"; grep -E "passed|failed|^E " $R/pytest_$f.txt | tail -4)
done
