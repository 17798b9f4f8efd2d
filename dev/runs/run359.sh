#!/usr/bin/env bash
# Run 359 (session 33): runs 356 and 358 read KernelBench 64 2.10 ms in TF32 and 1.13 in fp16 with the final library
# (.carry/libconvt1d_356.so.xz), where run 354's library read 1.89 / 1.06: the code, or the card? Session 32's library
# (.carry/libconvt1d_350.so.xz; its fp16 kernels differ only in register names and argument offsets) and the final one in
# alternating processes, 3 rounds, cuDNN beside each; upsample_x8 fp16 as the control that should gain.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 350 356; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l350 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l350/libconvt1d_torch.so /tmp/l350/libconvt1d_torch.torch_version /tmp/l356/
for i in 1 2 3; do for v in 350 356; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 50 \
    --shapes kernelbench_64 --modes fp32,fp16,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 50 \
    --shapes upsample_x8_bias --modes fp16 --variants shipped --out $R/abu_${v}_$i.json > $R/abu_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(cat $R/ab_${v}_$i.txt $R/abu_${v}_$i.txt | grep -E '^(kernel|upsa)' | awk '{print $1, $2, $4, $7}' | tr '\n' ' ')"
done; done
