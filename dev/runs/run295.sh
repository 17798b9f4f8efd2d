#!/usr/bin/env bash
# Run 295 (session 27): what the TF32 A-fragment rounding costs the register-A forward. Three libraries in alternating
# processes, 3 rounds: shipped; n = x not rounded (the MMA truncates; timing only, not a product build); np = n with the
# fragment loads a k-step ahead in TF32 too (PREF). Libraries in .carry_ab (xz), built by a one-file rebuild of
# fwd_wgmma.cu with -DCONVT1D_EXP_NOROUND=1 [-DCONVT1D_EXP_PREF32=1].
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in shipped var_n var_np; do xz -d -c .carry_ab/$v.so.xz > /tmp/$v.so; done
for i in 1 2 3; do for v in shipped var_n var_np; do
  CONVT1D_LIBRARY=/tmp/$v.so timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 50 \
    --shapes kernelbench_64,kernelbench_74,hifigan_up1,upsample_x8_bias,codec_dec_s5,codec_dec_s8,hifigan_up2 \
    --modes fp32 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|upsa|codec)' $R/ab_${v}_$i.txt | awk '{print $1, $4, $7}' | tr '\n' ' ')"
done; done
