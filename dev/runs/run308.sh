#!/usr/bin/env bash
# Run 308 (session 28): boxes copied one position on (WgArgs::sx) so that the 16-bit taps of shift 1 (mod 8) load by
# ldmatrix: the new tests; the 16-bit register-A forward tests with it; the checker; A/B sx on / off in one process
# (rotated: the same kernels, the flag only), and the new library against 23c43ea's (.carry/libconvt1d_old.so.xz,
# processes old new new old) on the 16-bit phase-merged layers and KernelBench 64 / 74.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/old.so
cp .carry/libconvt1d.so /tmp/new.so
export CONVT1D_LIBRARY=/tmp/new.so
(cd tests/python && timeout 150 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py -k "shifted_copy or ldmatrix_taps" \
  > $R/pytest_sx.txt 2>&1; echo "pytest sx exit $? ($SECONDS s)"; tail -1 $R/pytest_sx.txt; grep -E "^FAILED" $R/pytest_sx.txt | head -5 | cut -c1-250)
SH=upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,codec_dec_s8,codec_dec_s5
for i in 1 2; do
  timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 50 --order rotate --shapes $SH --modes fp16,bf16 \
    --variants shipped,sx0=CONVT1D_WGMMA_RS_SX:0 --out $R/ab_sx_$i.json > $R/ab_sx_$i.txt 2>&1
  echo "ab sx $i exit $? ($SECONDS s)"; grep -E '^(hifi|upsa|codec)' $R/ab_sx_$i.txt | cut -c1-150
done
i=0
for v in old new new old; do i=$((i+1))
  CONVT1D_LIBRARY=/tmp/$v.so timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 50 \
    --shapes $SH,kernelbench_64,kernelbench_74 --modes fp16,bf16 --variants shipped --out $R/ab_${i}_$v.json > $R/ab_${i}_$v.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(hifi|upsa|codec|kern)' $R/ab_${i}_$v.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done
python3 dev/python/sass_wgmma_hazard.py --allow-ldsm-taps /tmp/new.so > $R/sass.txt 2>&1; echo "sass exit $? ($SECONDS s): $(tail -1 $R/sass.txt)"
(cd tests/python && timeout 150 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py \
  -k "(f16 or bf16) and (test_wgmma_forward or spare_rows or rs_pack or rs_edge or one_phase)" \
  > $R/pytest_16.txt 2>&1; echo "pytest 16-bit exit $? ($SECONDS s)"; tail -1 $R/pytest_16.txt; grep -E "^FAILED" $R/pytest_16.txt | head -5 | cut -c1-250)
