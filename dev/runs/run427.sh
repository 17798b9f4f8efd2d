#!/usr/bin/env bash
# Run 427 (session 46): does tile_rt cost the lean kernel? Run 426 (an H200) read KernelBench 64 TF32 at 1.789 ms against
# run 417d's 1.601 (library 415, another H200), the other rows within 2-3%; the H200 runs it on the lean kernel, which
# run 423's control (H100: the full kernel) did not cover. Library 415 and library 426 in alternating processes, 3 rounds,
# with CONVT1D_DRAM_RICH=1 (the H200's picks, the lean kernel, on whichever card comes) and without.
# Before the call, on the host: bash dev/probes/build_probe.sh cur; bash dev/probes/build_probe.sh fin2
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in cur fin2; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/lfin2/
for i in 1 2 3; do for v in cur fin2; do
  CONVT1D_DRAM_RICH=1 CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes kernelbench_64 --modes fp32,fp16,bf16 --variants shipped --out $R/rich_${v}_$i.json > $R/rich_${v}_$i.txt 2>&1
  echo "rich $v $i ($SECONDS s): $(grep -E '^kernel' $R/rich_${v}_$i.txt | awk '{print $2, $4, $7}' | tr '\n' ' ')"
done; done
