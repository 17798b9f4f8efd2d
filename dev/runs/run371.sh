#!/usr/bin/env bash
# Run 371 (session 35): experiment TFB: in the TF32 128x2 forward kernel with the weights in the stages (KernelBench 64,
# hifigan_up2-4), a stage's taps 1..T-1 land on a barrier of their own, so tap 0's MMAs start on the input and tap 0's
# weights alone (run 370: KernelBench 64 TF32 7% slower with its weights issued after its input). Library
# .carry/libconvt1d_371.so.xz. 1) TF32 register-A forward tests. 2) Session 33's library (360) and this one in
# alternating processes, 3 rounds. 3) On / off in one process (CONVT1D_WGMMA_RS_TFB=0), rotated.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 371; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l371 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l371/libconvt1d_torch.so /tmp/l371/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l371/libconvt1d.so
timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 5 --order once --shapes kernelbench_64,hifigan_up2 --modes fp32 --variants shipped > $R/smoke.txt 2>&1; echo "smoke exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/smoke.txt | cut -c1-120
(cd tests/python && timeout 100 python3 -m pytest -q -x -p no:cacheprovider test_cuda_wgmma.py -k "tf32 and (fast_epilogue or spare or (test_wgmma_forward and rs) or rs_taken)" > $R/tests_rs.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-250; tail -1 $R/tests_rs.txt)
for i in 1 2 3; do for v in 360 371; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 50 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,hifigan_up2,hifigan_up3,hifigan_up1 --modes fp32 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes kernelbench_64,hifigan_up2 --modes fp32 \
  --variants shipped,off=CONVT1D_WGMMA_RS_TFB:0 --out $R/ab_tfb.json > $R/ab_tfb.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/ab_tfb.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
