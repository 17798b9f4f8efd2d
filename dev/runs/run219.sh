#!/usr/bin/env bash
# Run 219 (session 21): the staged epilogue in two halves (one draining while the other is written;
# CONVT1D_WGMMA_RS_EPI_HALVES=0 turns it off) and one-phase layers on the register-A kernel (CONVT1D_WGMMA_RS_OP=1):
# every wgmma test, the sanitizer, then A/Bs in one process each.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 250 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_wgmma.txt | head -12)
CONVT1D_WGMMA_RS_OP=1 SAN_CASES=kb79ish,kb64ish,s5_partial_rows SAN_TILES=auto,64x1,pp,staged timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san.txt
AB="python3 dev/python/ab_wgmma.py --budget-ms 100"
timeout 90 $AB --shapes kernelbench_79 --modes fp32,fp32_strict,bf16 \
  --variants "shipped,op=CONVT1D_WGMMA_RS_OP:1,op_whole=CONVT1D_WGMMA_RS_OP:1+CONVT1D_WGMMA_RS_EPI_HALVES:0,op_nopp=CONVT1D_WGMMA_RS_OP:1+CONVT1D_WGMMA_RS_PP:0,op_nopp_whole=CONVT1D_WGMMA_RS_OP:1+CONVT1D_WGMMA_RS_PP:0+CONVT1D_WGMMA_RS_EPI_HALVES:0" \
  --out $R/ab_op.json > $R/ab_op.txt 2>&1; echo "ab op exit $? ($SECONDS s)"; cut -c1-250 $R/ab_op.txt | tail -3
timeout 120 $AB --shapes kernelbench_74,kernelbench_64,hifigan_up3,hifigan_up4,codec_dec_s5 --modes fp32,fp32_strict \
  --variants "shipped,whole=CONVT1D_WGMMA_RS_EPI_HALVES:0" --out $R/ab_halves_fwd.json > $R/ab_halves_fwd.txt 2>&1; echo "ab fwd exit $? ($SECONDS s)"; cut -c1-200 $R/ab_halves_fwd.txt | tail -10
timeout 100 $AB --kind bwd_input --shapes hifigan_up3,upsample_x8_bias,kernelbench_74,codec_dec_s5 --modes fp32,bf16 \
  --variants "shipped,whole=CONVT1D_WGMMA_RS_EPI_HALVES:0" --out $R/ab_halves_bi.json > $R/ab_halves_bi.txt 2>&1; echo "ab bi exit $? ($SECONDS s)"; cut -c1-200 $R/ab_halves_bi.txt | tail -8
