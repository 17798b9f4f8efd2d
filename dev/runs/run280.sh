#!/usr/bin/env bash
# Run 280 (session 26): spare rows in the register-A forward (strides 3, 5, 6, 7: the channels past r_tiles*R fill the
# rows a tile's whole channels leave). 1) codec_dec_s5 A/B, rotated: spare rows on / off (CONVT1D_WGMMA_RS_SPARE=0), and
# the 256x1 / 128x2 tiles with them. 2) The tests: test_wgmma_rs_spare_rows, test_wgmma_forward on the stride-3/5/7
# shapes. 3) memcheck on the spare cases of san_fwd_rs.py. 4) Every kernel's code changed (the spare-row stores sit in
# the epilogue's last row group): the previous library (58f0fb9) against the new one in alternating processes on the
# large layers the register-A forward takes.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes codec_dec_s5 --modes fp32,fp32_strict,fp16,bf16 \
  --variants shipped,nospare=CONVT1D_WGMMA_RS_SPARE:0,t256x1=CONVT1D_WGMMA_RS_TILE:256x1,t128x2=CONVT1D_WGMMA_RS_TILE:128x2 \
  --out $R/ab_spare.json > $R/ab_spare.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^[a-z]" $R/ab_spare.txt | cut -c1-220
cd tests/python
timeout 200 python3 -m pytest -q -x -p no:cacheprovider test_cuda_wgmma.py -k "spare_rows or (test_wgmma_forward and (codec_s5 or s3_dilated or s7_cout))" \
  > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; tail -3 $R/pytest.txt; grep -E "^FAILED|Error" $R/pytest.txt | head -5 | cut -c1-300
cd ../..
SAN_CASES=s5_spare,s6_spare SAN_TILES=auto,64x1,64x2,128x1,128x2,256x1,direct,staged timeout 150 compute-sanitizer --tool memcheck \
  python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4
awk '{for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+e[-+][0-9]+$/ && $i+0 > m) m = $i+0} END {print "san worst rel err", m, NR, "lines"}' $R/san.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2; do for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 --shapes kernelbench_64,kernelbench_74,upsample_x8_bias,hifigan_up1,hifigan_up3 \
    --modes fp32,bf16 --variants shipped --out $R/ab_lib_${v}_$i.json > $R/ab_lib_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|upsample|hifigan)' $R/ab_lib_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
