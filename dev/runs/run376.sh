#!/usr/bin/env bash
# Run 376 (session 36): the TF32 128x2 forward's A fragments loaded a k-step ahead (PREF, as the 16-bit kernels and the
# RX kernels do). Runs 372 and 375 put 17% of KernelBench 64 TF32's stall samples on the rounding adds waiting for their
# shared-memory loads (short scoreboard), the loads issued in turn after each k-step's wait. Library 376: PREF for
# TY = TF32, BR = 128, MQ = 2 (not grad_input); checked before the run: no stack, no register hazard. 1) TF32 register-A
# forward tests. 2) 360 and 376 in alternating processes, 3 rounds: KernelBench 64, hifigan_up2 / up3 (128x2 phase-merged).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 376; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l376 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l376/libconvt1d_torch.so /tmp/l376/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l376/libconvt1d.so
(cd tests/python && timeout 100 python3 -m pytest -q -x -p no:cacheprovider test_cuda_wgmma.py -k "tf32 and (fast_epilogue or spare or (test_wgmma_forward and rs) or rs_taken)" > $R/tests_rs.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-250; tail -1 $R/tests_rs.txt)
for i in 1 2 3; do for v in 360 376; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 50 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes kernelbench_64,hifigan_up2,hifigan_up3 --modes fp32 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
