#!/usr/bin/env bash
# Run 370 (session 35): the register-A kernel's producer issues a stage's input boxes before its weights (the input's
# reads, from DRAM where the tile is the first to read it, start before the TMA unit works through the weights' box),
# library .carry/libconvt1d_370.so.xz. 1) The register-A forward tests, TF32 and bf16. 2) Session 33's library (360)
# and this one in alternating processes, 3 rounds.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 370; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l370 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l370/libconvt1d_torch.so /tmp/l370/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l370/libconvt1d.so
(cd tests/python && timeout 150 python3 -m pytest -q -x -p no:cacheprovider test_cuda_wgmma.py -k "(tf32 or bf16) and (fast_epilogue or spare or (test_wgmma_forward and rs) or rs_taken)" > $R/tests_rs.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-250; tail -1 $R/tests_rs.txt)
for i in 1 2 3; do for v in 360 370; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,kernelbench_74,hifigan_up1,upsample_x8_bias,codec_dec_s5 --modes fp32,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
