#!/usr/bin/env bash
# Prepared in session 46, NOT RUN (the device time was spent). Run 427 (session 46): does tile_rt cost the lean kernel? Run 426 (an H200) read KernelBench 64 TF32 at 1.789 ms against
# run 417d's 1.601 (library 415, another H200), the other rows within 2-3%; the H200 runs it on the lean kernel, which
# run 423's control (H100: the full kernel) did not cover. Library 427 compiles tile_rt out of the lean kernel, so its
# lean kernel should time as library 415's. Libraries 415 and 427 in alternating processes, 3 rounds, with
# CONVT1D_DRAM_RICH=1 (the H200's picks, the lean kernel, on whichever card comes); then the tile-order and lean tests on
# library 427. Before the call, on the host (~5 min each): bash dev/probes/build_probe.sh cur; ... fin3 (HEAD)
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in cur fin3; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for v in fin3; do cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/l$v/; done
for i in 1 2 3; do for v in cur fin3; do
  CONVT1D_DRAM_RICH=1 CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes kernelbench_64 --modes fp32,fp16,bf16 --variants shipped --out $R/rich_${v}_$i.json > $R/rich_${v}_$i.txt 2>&1
  echo "rich $v $i ($SECONDS s): $(grep -E '^kernel' $R/rich_${v}_$i.txt | awk '{print $2, $4, $7}' | tr '\n' ' ')"
done; done
export CONVT1D_LIBRARY=/tmp/lfin3/libconvt1d.so
(cd tests/python && timeout 60 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "test_wgmma_rs_tile_order or test_wgmma_rs_lean" > $R/tests.txt 2>&1
 echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -5 | cut -c1-250; tail -1 $R/tests.txt)
