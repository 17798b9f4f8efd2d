#!/usr/bin/env bash
# Run 183 (session 18, device time's end): the register-A grad_weight's interior grad_y windows by TMA boxes over
# residue groups (CONVT1D_WGMMA_BW_RS_TMA=1, opt-in), the producer's stage loop in two instantiations (no spills):
# tests with and without it, sanitizer with it, A/B.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 50 python3 -m pytest -q --timeout=30 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight_rs and (tma or forced or noperm)" > $R/pytest_new.txt 2>&1; echo "pytest new exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_new.txt | tail -6)
CONVT1D_WGMMA_BW_RS_TMA=1 timeout 25 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_rs.py > $R/san_bw_tma.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_bw_tma.txt
timeout 45 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_64,kernelbench_74,hifigan_up3,hifigan_up4 --modes fp32,bf16 --budget-ms 25 \
  --variants "shipped,tma=CONVT1D_WGMMA_BW_RS_TMA:1" --out $R/ab_bw_tma.json > $R/ab_bw_tma.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-150 $R/ab_bw_tma.txt | tail -8
