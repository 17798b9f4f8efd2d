#!/usr/bin/env bash
# Run 305 (session 28): the register-A hazard at the 16-bit ldmatrix taps (dev/python/sass_wgmma_hazard.py found the
# next tap's ldmatrix writing the registers of the previous tap's last, still pending, MMA where two ldmatrix taps
# follow each other): the fix (a wgmma wait before an ldmatrix tap) against the library before it (1882709,
# .carry/libconvt1d_old.so.xz). The checker on both libraries; the new consecutive-ldmatrix-taps test on both; the
# 16-bit register-A forward tests and test_sass_hazard.py on the new one; 3 rounds of A/B in alternating processes.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/old.so
cp .carry/libconvt1d.so /tmp/new.so
for v in old new; do
  python3 dev/python/sass_wgmma_hazard.py /tmp/$v.so > $R/sass_$v.txt 2>&1; echo "sass $v exit $? ($SECONDS s): $(tail -1 $R/sass_$v.txt)"
done
for v in old new; do
  (cd tests/python && CONVT1D_LIBRARY=/tmp/$v.so timeout 120 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py \
    -k "ldmatrix_taps" > $R/pytest_ldm_$v.txt 2>&1; echo "pytest ldm taps $v exit $? ($SECONDS s)"; tail -1 $R/pytest_ldm_$v.txt
   grep -E "^FAILED" $R/pytest_ldm_$v.txt | head -5 | cut -c1-250)
done
for i in 1 2 3; do for v in old new; do
  CONVT1D_LIBRARY=/tmp/$v.so timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 50 \
    --shapes upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,codec_dec_s8,codec_dec_s5,kernelbench_64,kernelbench_74 \
    --modes fp16,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(hifi|upsa|codec|kern)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
export CONVT1D_LIBRARY=/tmp/new.so
(cd tests/python && timeout 100 python3 -m pytest -q -rf -p no:cacheprovider test_sass_hazard.py > $R/pytest_sass.txt 2>&1
 echo "pytest sass exit $? ($SECONDS s)"; tail -1 $R/pytest_sass.txt)
(cd tests/python && timeout 150 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py \
  -k "(f16 or bf16) and (test_wgmma_forward or spare_rows or rs_pack or rs_edge or one_phase)" \
  > $R/pytest_16.txt 2>&1; echo "pytest 16-bit exit $? ($SECONDS s)"; tail -1 $R/pytest_16.txt; grep -E "^FAILED" $R/pytest_16.txt | head -5 | cut -c1-250)
