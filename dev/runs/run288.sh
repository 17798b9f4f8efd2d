#!/usr/bin/env bash
# Run 288 (session 26): the forward's plumbing around the register-A kernel. (1) The edge kernel reads each weight sector
# once per block of 4 columns x 8 samples (it read it once per column, 8-16x the bytes used: 34-89 us, 10-27 us past the
# forward on hifigan_up1 / upsample_x8 / codec_dec_s8 bf16, run 287). (2) The weight pack skips its zeroing pass where the
# scatter covers the packed tensor (25 us of codec_dec_s8 fp32) and moves 16-bit weights by pairs (61 us for 38 MB each
# way on codec_dec_s8 bf16). Tests, memcheck, one call's kernel timeline, and the spare-row library (ca8da03) against the
# new one in alternating processes.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for s in codec_dec_s8 hifigan_up1; do for m in fp32 bf16; do
  timeout 60 python3 dev/python/profile_case.py $s fwd $m times 2>/dev/null | cut -c1-140; done; done | tee $R/kernels.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2; do for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 --shapes codec_dec_s8,hifigan_up1,upsample_x8_bias,codec_dec_s5 \
    --modes fp32,bf16 --variants shipped --out $R/ab_lib_${v}_$i.json > $R/ab_lib_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(codec|upsample|hifigan)' $R/ab_lib_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
cd tests/python
timeout 200 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge or rs_pack or spare_rows or test_wgmma_forward or grad_input_adjoint" \
  > $R/pytest.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300
cd ../..
timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_edge.py > $R/san_edge.txt 2>&1; echo "san edge exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_edge.txt | head -3
SAN_CASES=kb64ish,s4_wide,s5_spare,s6_spare SAN_TILES=auto timeout 80 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_rs.txt 2>&1; echo "san rs exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_rs.txt | head -2
