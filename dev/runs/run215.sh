#!/usr/bin/env bash
# Run 215 (session 20): the register-A kernel's A-fragment loads one k-step ahead (lds_a / mk_a, PREF): every wgmma
# test and the sanitizer on the new library; then the previous library (1861cbc, .carry/old.so.xz) and the new one
# in alternating processes, three each, on the layers that take the register-A kernel.
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/old && xz -dc .carry/old.so.xz > /tmp/old/libconvt1d.so
for d in .carry /tmp/old; do bash scripts/build_torch_op.sh $d >> $R/build_op.txt 2>&1 || echo "op build $d failed"; done
S=kernelbench_64,kernelbench_74,upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up4,codec_dec_s8,codec_dec_s5
for i in 1 2 3; do
  for v in old new; do
    case $v in old) L=/tmp/old/libconvt1d.so;; new) L=$PWD/.carry/libconvt1d.so;; esac
    CONVT1D_LIBRARY=$L CONVT1D_COMMIT=$v timeout 80 python3 -m convt1d.bench --shapes $S --modes fp32,fp16,bf16 --budget-ms 40 --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
    echo "$v $i: $(grep -E '^(kernelbench_(64|74)|upsample_x8_bias|hifigan_up[124]|codec_dec_s[58]) ' $R/ab_${v}_$i.txt | awk '{printf "%s/%s %s  ", substr($1,1,12), $2, $3}')"
  done
done
export CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
(cd /tmp && timeout 230 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -6)
timeout 40 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
