#!/usr/bin/env bash
# Run 281 (session 26): spare rows, after run 280. 1) The tests with input rows TMA can take (run 280's spare shapes had
# odd lengths: the 16-bit cases fell back to mma.sync): test_wgmma_rs_spare_rows, every test_wgmma_forward, the grouped
# register-A forward (one launch per group's view). 2) memcheck on the spare cases. 3) The fuzz with the register-A
# forward forced. 4) KernelBench 64 / 74 TF32 read 1-2% slower on the new library in run 280 (2 rounds, other layers
# within noise either way): previous (58f0fb9) against new, 3 rounds in alternating processes, and the SASS of the
# stride-1 TF32 kernels compared outside the epilogue.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2 3; do for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 60 --shapes kernelbench_64,kernelbench_74,hifigan_up2 \
    --modes fp32 --variants shipped --out $R/ab_lib_${v}_$i.json > $R/ab_lib_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|upsample|hifigan)' $R/ab_lib_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  timeout 120 cuobjdump -sass $lib 2>/dev/null | awk '/Function : /{on = ($0 ~ /rs_kernelILi2ELi128ELi2ELb0ELb0ELb0E/)} on' > $R/${v}_tf32_128x2.sass
done
wc -l $R/*.sass
cd tests/python
timeout 240 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "spare_rows or test_wgmma_forward or rs_forward_grouped" \
  > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; tail -2 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300
cd ../..
SAN_CASES=s5_spare,s6_spare SAN_TILES=auto,64x1,64x2,128x1,128x2,256x1,direct,staged timeout 150 compute-sanitizer --tool memcheck \
  python3 dev/python/san_fwd_rs.py > $R/san.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|Invalid" $R/san.txt | head -4
awk '{for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+e[-+][0-9]+$/ && $i+0 > m) m = $i+0} END {print "san worst rel err", m, NR, "lines"}' $R/san.txt
CONVT1D_WGMMA_RS=1 timeout 70 python3 dev/python/fuzz.py --seed 281 --count 3000 --time-budget 50 --out $R/fuzz_rs.json > $R/fuzz_rs.txt 2>&1
echo "fuzz rs exit $? ($SECONDS s): $(tail -1 $R/fuzz_rs.txt)"; grep -E "^FAIL" $R/fuzz_rs.txt | head -3 | cut -c1-600
