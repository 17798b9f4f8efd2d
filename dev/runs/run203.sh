#!/usr/bin/env bash
# Run 203 (session 19, review at stop): the pair stores folded into the general direct epilogue (c97f527): forward
# tests, the pair stores on / off A/B against run 194's numbers; the probes after their shared layer helper.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 120 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and (rs or heuristic)" > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -4)
timeout 60 python3 dev/python/ab_wgmma.py --kind fwd --shapes upsample_x8_bias,hifigan_up1 --modes fp32,bf16 --budget-ms 25 \
  --variants "shipped,noypair=CONVT1D_WGMMA_RS_YPAIR:0" --out $R/ab_ypair.json > $R/ab_ypair.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-180 $R/ab_ypair.txt | tail -4
timeout 30 python3 dev/python/l2_blocked_probe.py kernelbench_79 fp32 4 2>&1 | tail -1
timeout 30 python3 dev/python/concurrent_bwd_probe.py kernelbench_79 bf16 2>&1 | tail -1
