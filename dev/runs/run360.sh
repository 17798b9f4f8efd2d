#!/usr/bin/env bash
# Run 360 (session 33): the final library .carry/libconvt1d_360.so.xz: run 356's with the phase-merged no-check loops left
# out of the TF32 128x2 kernels (run 359: KernelBench 64 TF32 11% slower with them compiled in). 1) The fast-epilogue test.
# 2) Session 32's library and this one in alternating processes, 2 rounds (KernelBench 64 TF32, upsample_x8 fp16,
# hifigan_up2 TF32). 3) The forward suite and the KernelBench evaluation (committed records).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 350 360; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l360 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l360/libconvt1d_torch.so /tmp/l360/libconvt1d_torch.torch_version /tmp/l350/
export CONVT1D_LIBRARY=/tmp/l360/libconvt1d.so
(cd tests/python && timeout 50 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "fast_epilogue" > $R/tests_fast.txt 2>&1; echo "tests exit $? ($SECONDS s)"; tail -1 $R/tests_fast.txt)
for i in 1 2; do for v in 350 360; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 50 \
    --shapes kernelbench_64,hifigan_up2 --modes fp32 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $4, $7}' | tr '\n' ' ')"
done; done
timeout 100 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|hifigan_up2|codec_dec_s5|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-100
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-220
