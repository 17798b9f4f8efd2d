#!/usr/bin/env bash
# Run 296 (session 27): TF32 input boxes rounded once per stage in shared memory by the producer warpgroup's idle warps
# (fwd_wgmma_rs_kernel RX; CONVT1D_WGMMA_RS_RX). Tests (the new rounded-box test: bitwise equal with it on and off, the
# register-A forward tests in every mode), memcheck with RX forced, then the A/B in one process (rotated ABBA): shipped
# (RX where run_rs takes it) / RX never / RX wherever TMA stages, on the TF32 register-A layers.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rounded_boxes or rs_kernel_args" \
  > $R/pytest_rx.txt 2>&1; echo "pytest rx exit $? ($SECONDS s)"; tail -1 $R/pytest_rx.txt; grep -E "^FAILED" $R/pytest_rx.txt | head -5 | cut -c1-300)
CONVT1D_WGMMA_RS_RX=1 SAN_CASES=kb64ish,s4_wide,s5_spare,grouped_rows_x4 SAN_TILES=auto,64x2,128x2,256x1,wres,pp,staged \
  timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_rs.txt 2>&1; echo "san rs exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_rs.txt | head -2
timeout 260 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate \
  --shapes kernelbench_64,kernelbench_74,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,upsample_x8_bias,codec_dec_s5,codec_dec_s8,grouped_g4 \
  --modes fp32 --variants shipped,rx0=CONVT1D_WGMMA_RS_RX:0,rx1=CONVT1D_WGMMA_RS_RX:1 --out $R/ab_rx.json > $R/ab_rx.txt 2>&1
echo "ab exit $? ($SECONDS s)"; cat $R/ab_rx.txt
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge or rs_pack or spare_rows or test_wgmma_forward or one_phase or rs_forward_grouped" \
  > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; tail -1 $R/pytest_wgmma.txt; grep -E "^FAILED" $R/pytest_wgmma.txt | head -5 | cut -c1-300)
# where the RX kernels spill (ptxas: 84-byte spills in every RX instantiation, none without RX)
K=$(cuobjdump -symbols .carry/libconvt1d.so 2>/dev/null | grep -o "_Z[^ ]*fwd_wgmma_rs_kernelILi2ELi64ELi2ELb0ELb0ELb0ELb1E[^ ]*" | head -1)
cuobjdump -sass -fun "$K" .carry/libconvt1d.so > $R/sass_rx64x2.txt 2>&1; echo "sass $(wc -l < $R/sass_rx64x2.txt) lines"
grep -n -E "STL|LDL|SETMAXNREG|CALL|EXIT" $R/sass_rx64x2.txt | head -60
