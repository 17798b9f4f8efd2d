#!/usr/bin/env bash
# Run 306 (session 28): is run 305's 1-3% (the wait before an ldmatrix tap, new, vs 1882709, old) the change or the
# process order (run 305 ran old before new in every round)? Six processes in the order old new new old old new on
# the 16-bit phase-merged layers; the consecutive-ldmatrix-taps test (picks that fall back no longer fail) on both
# libraries, three times each on the old one (how often run 305's race shows).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/old.so
cp .carry/libconvt1d.so /tmp/new.so
i=0
for v in old new new old old new; do i=$((i+1))
  CONVT1D_LIBRARY=/tmp/$v.so timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 50 \
    --shapes upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,codec_dec_s8,codec_dec_s5 \
    --modes fp16,bf16 --variants shipped --out $R/ab_${i}_$v.json > $R/ab_${i}_$v.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(hifi|upsa|codec|kern)' $R/ab_${i}_$v.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done
for v in old old old new; do i=$((i+1))
  (cd tests/python && CONVT1D_LIBRARY=/tmp/$v.so timeout 120 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py \
    -k "ldmatrix_taps" > $R/pytest_ldm_${i}_$v.txt 2>&1; echo "pytest ldm taps $v exit $? ($SECONDS s)"; tail -1 $R/pytest_ldm_${i}_$v.txt
   grep -E "^FAILED" $R/pytest_ldm_${i}_$v.txt | head -5 | cut -c1-250)
done
