#!/usr/bin/env bash
# Run 237 (session 22): 16-bit lost with rows between 128-byte boundaries (run 236: bf16 0.389 vs 0.320 ms): the bulk
# copies' source now on the destination's 128-byte phase (CONVT1D_FUSED_LPAD, default) against a vector's phase only,
# vector stores, no line; TF32 with bulk copies; split TF32 on the fused kernel line / not. Fused tests, sanitizer.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,lpad0=CONVT1D_FUSED_LPAD:0,vec=CONVT1D_FUSED_BULK:0,bulk=CONVT1D_FUSED_BULK:1,noline=CONVT1D_FUSED_LINE:0,fused=CONVT1D_FWD_FUSED:1,fused_noline=CONVT1D_FWD_FUSED:1+CONVT1D_FUSED_LINE:0" --out $R/ab_line2.json > $R/ab_line2.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-400 $R/ab_line2.txt | tail -5
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k fused > $R/pytest_fused.txt 2>&1; echo "pytest fused exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_fused.txt | tail -6)
CONVT1D_FUSED_BT=256 timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san_256.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san_256.txt | head -3
