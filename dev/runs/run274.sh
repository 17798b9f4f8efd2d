#!/usr/bin/env bash
# Run 274 (session 25): 16-bit A fragments by ldmatrix.x4.trans in the register-A forward without position pairs (the
# phase-merged vocoder layers), on taps whose shift is a multiple of 8 (CONVT1D_WGMMA_RS_LDM=0: the 16-bit loads and
# their pairing on every tap, as before). The 16-bit wgmma forward tests (every pick, rsnoldm new), memcheck, and the
# stride >= 2 layers' 16-bit forward with and without (rotated ABBA), KernelBench 74 bf16 as a control (pairs: unchanged).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate \
  --shapes upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,codec_dec_s5,codec_dec_s8,kernelbench_79,kernelbench_74 \
  --modes fp16,bf16 --variants shipped,noldm=CONVT1D_WGMMA_RS_LDM:0 --out $R/ab_ldm.json > $R/ab_ldm.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^[a-z]" $R/ab_ldm.txt | cut -c1-150
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py \
   -k "test_wgmma_forward and (f16 or bf16)" > $R/pytest_fwd16.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_fwd16.txt | tail -8)
SAN_CASES=s4_wide,s5_partial_rows,s2_odd_grad_y SAN_TILES=auto,128x2,256x1,staged,direct \
  timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_ldm.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_ldm.txt
timeout 60 python3 dev/python/fuzz.py --seed 31 --count 3000 --modes fp16,bf16 --time-budget 40 --out $R/fuzz16.json > $R/fuzz16.txt 2>&1; echo "fuzz exit $? ($SECONDS s): $(tail -1 $R/fuzz16.txt)"; grep -E "^FAIL" $R/fuzz16.txt | head -3 | cut -c1-400
