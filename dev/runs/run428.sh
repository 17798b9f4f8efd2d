#!/usr/bin/env bash
# Run 428 (session 47): library 427 on a GPU for the first time (HEAD's source: tile_rt compiled out of the lean kernel).
# 1. Tests on library 427: the tile-order and lean register-A tests, then test_cuda.py + test_autograd.py.
# 2. Did tile_rt cost the lean kernel? Libraries 426 (tile_rt in the lean kernel) and 427 (lean kernel equal to library
#    415's by sass_diff) on KernelBench 64 with CONVT1D_DRAM_RICH=1 (the lean kernel on either card), alternating
#    processes, 3 rounds. Run 426 read KernelBench 64 TF32 at 1.789 ms on an H200 against run 417d's 1.601 (library 415).
# 3. What the weights' refill costs codec_dec_s8 now that its tiles go in groups: the timing probe d1
#    (dev/probes/data_probe.patch, a stage's weights loaded on its first fill only; outputs wrong by design) against
#    library 427, alternating processes, 2 rounds; hifigan_up1 (weights fit in L2, no groups) beside it.
# 4. The forward record with library 427 on whichever card comes.
# Before the call, on the host (~5-6 min each):
#   bash dev/probes/build_probe.sh cur; REV=6109d11 bash dev/probes/build_probe.sh l426
#   bash dev/probes/build_probe.sh d1 dev/probes/data_probe.patch CONVT1D_PROBE_DATA=1
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in cur l426 d1; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for v in l426 d1; do cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/l$v/; done
export CONVT1D_LIBRARY=/tmp/lcur/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 110 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "test_wgmma_rs_tile_order or test_wgmma_rs_lean" > $R/tests_wgmma.txt 2>&1
 echo "wgmma tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -5 | cut -c1-250; tail -n 1 $R/tests_wgmma.txt)
(cd tests/python && timeout 110 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -5 | cut -c1-250; tail -n 1 $R/tests_cuda.txt)
for i in 1 2 3; do for v in cur l426; do
  CONVT1D_DRAM_RICH=1 CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes kernelbench_64 --modes fp32,fp16,bf16 --variants shipped --out $R/rich_${v}_$i.json > $R/rich_${v}_$i.txt 2>&1
  echo "rich $v $i ($SECONDS s): $(grep -E '^kernel' $R/rich_${v}_$i.txt | awk '{print $2, $4, $7}' | tr '\n' ' ')"
done; done
for i in 1 2; do for v in cur d1; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes codec_dec_s8,hifigan_up1 --modes fp32,bf16 --variants shipped --out $R/data_${v}_$i.json > $R/data_${v}_$i.txt 2>&1
  echo "data $v $i ($SECONDS s): $(grep -E '^(codec|hifi)' $R/data_${v}_$i.txt | awk '{print $1, $2, $4, $7}' | tr '\n' ' ')"
done; done
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-90
