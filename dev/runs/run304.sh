#!/usr/bin/env bash
# Run 304 (session 27): the 16-bit ldmatrix taps' exposure to run 298's race (their fragments are the loads themselves,
# issued a k-step ahead): the cost of a wgmma wait before each tap's first loads in the 16-bit kernels that take
# ldmatrix (rebuild with -DCONVT1D_EXP_LDMWAIT=1, .carry_ab/var_w.so.xz) against the shipped library, 3 rounds in
# alternating processes on the 16-bit phase-merged layers; and the 16-bit register-A forward tests with it.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry_ab/var_w.so.xz > /tmp/var_w.so
cp .carry/libconvt1d.so /tmp/shipped.so
for i in 1 2 3; do for v in shipped var_w; do
  CONVT1D_LIBRARY=/tmp/$v.so timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 50 \
    --shapes upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,codec_dec_s8,codec_dec_s5 \
    --modes fp16,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(hifi|upsa|codec)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
(cd tests/python && CONVT1D_LIBRARY=/tmp/var_w.so timeout 150 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py \
  -k "(f16 or bf16) and (test_wgmma_forward or spare_rows or rs_pack or rs_edge)" \
  > $R/pytest_w.txt 2>&1; echo "pytest 16-bit exit $? ($SECONDS s)"; tail -1 $R/pytest_w.txt; grep -E "^FAILED" $R/pytest_w.txt | head -5 | cut -c1-300)
