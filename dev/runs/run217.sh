#!/usr/bin/env bash
# Run 217 (session 20): the register-A kernel's stage index and parity counted along instead of divided per chunk:
# the previous library (1d059c2, .carry/old.so.xz) and the new one in alternating processes, then every wgmma test
# and the sanitizer on the new one.
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/old && xz -dc .carry/old.so.xz > /tmp/old/libconvt1d.so
for d in .carry /tmp/old; do bash scripts/build_torch_op.sh $d >> $R/build_op.txt 2>&1 || echo "op build $d failed"; done
S=kernelbench_64,kernelbench_74,upsample_x8_bias,hifigan_up1,codec_dec_s8,hifigan_up4
for i in 1 2 3; do
  for v in old new; do
    case $v in old) L=/tmp/old/libconvt1d.so;; new) L=$PWD/.carry/libconvt1d.so;; esac
    CONVT1D_LIBRARY=$L CONVT1D_COMMIT=$v timeout 60 python3 -m convt1d.bench --shapes $S --modes fp32,fp16,bf16 --budget-ms 30 --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
    echo "$v $i: $(grep -E '^(kernelbench_(64|74)|upsample_x8_bias|hifigan_up[14]|codec_dec_s8) ' $R/ab_${v}_$i.txt | awk '{printf "%s/%s %s  ", substr($1,1,12), $2, $3}')"
  done
done
export CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
(cd /tmp && timeout 215 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -6)
timeout 30 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
