#!/usr/bin/env bash
# Run 332 (session 31): experiment MO (CONVT1D_EXP_MO, a build flag): TF32 tiles of two m64 tiles per warpgroup with
# direct stores (KernelBench 64's 128x2) store acc[0] before acc[1], and each tile's first chunk runs acc[0]'s k-steps
# before acc[1]'s, so the next tile's first MMAs wait only for the stores that left first. 1) The register-A forward
# tests on the MO library (forced 128x2 / 64x2 tiles among the picks). 2) The shipped library (.carry/libconvt1d.so,
# acf6090) against MO in alternating processes, 3 rounds. 3) The forward suite with the shipped library.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
xz -dc .carry/libconvt1d_mo.so.xz > /tmp/libconvt1d_mo.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
CONVT1D_LIBRARY=/tmp/libconvt1d_mo.so timeout 150 python3 -m pytest -q tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or rs_pack or rs_spare_rows or rs_edge" \
  > $R/tests_mo.txt 2>&1; echo "MO tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_mo.txt | head -5 | cut -c1-250; tail -1 $R/tests_mo.txt
for i in 1 2 3; do for v in old mo; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = mo ] && lib=/tmp/libconvt1d_mo.so
  CONVT1D_LIBRARY=$lib timeout 70 python3 dev/python/ab_wgmma.py --budget-ms 60 --shapes kernelbench_64,hifigan_up2,hifigan_up3,kernelbench_74 \
    --modes fp32 --variants shipped --out $R/ab_lib_${v}_$i.json > $R/ab_lib_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|upsample|hifigan)' $R/ab_lib_${v}_$i.txt | awk '{print $1, $4, $7}' | tr '\n' ' ')"
done; done
timeout 150 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-110
