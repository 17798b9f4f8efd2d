#!/usr/bin/env bash
# Run 368 (session 35): deferred chunk release (the kernel's DCR) in the TF32 256-row forward kernels, library
# .carry/libconvt1d_368.so.xz (every other kernel's SASS identical to run 360's library). 1) The TF32 register-A
# forward tests. 2) Session 33's library (360) and this one in alternating processes, 3 rounds, TF32.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 368; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l368 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l368/libconvt1d_torch.so /tmp/l368/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l368/libconvt1d.so
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "tf32 and (fast_epilogue or spare or (test_wgmma_forward and rs) or rs_taken)" > $R/tests_rs.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-250; tail -1 $R/tests_rs.txt)
for i in 1 2 3; do for v in 360 368; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 50 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,hifigan_up1,upsample_x8_bias,codec_dec_s5,codec_dec_s8 --modes fp32 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $4, $7}' | tr '\n' ' ')"
done; done
