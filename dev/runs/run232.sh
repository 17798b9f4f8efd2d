#!/usr/bin/env bash
# Run 232 (session 21, review): the edge drop's host code reworked (the capture state and the side stream asked only
# for a dropped tile; the fork event released by its owner): the edge, one-phase and forward tests, test_cuda.py +
# test_autograd.py, and the edge A/B's shipped row for the layers it moved (same choice as run 225 expected).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "edge or one_phase or (test_wgmma_forward and (heuristic or rs))" > $R/pytest_edge.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_edge.txt | head -8)
(cd /tmp && timeout 90 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_cuda.txt | tail -4)
timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes upsample_x8_bias,hifigan_up1,codec_dec_s8 --modes fp32,bf16 \
  --variants "shipped,after=CONVT1D_WGMMA_RS_EDGE_BESIDE:0" --out $R/ab_edge.json > $R/ab_edge.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_edge.txt | tail -6
