#!/usr/bin/env bash
# Run 429 (session 47): library 427 on an H200 (run 428 ran it on an H100: tests 195 + 1728 passed, lean kernel 426 vs
# 427 1.96 / 1.95 ms on KernelBench 64 TF32). The H200 takes the lean kernel for KernelBench 64 TF32 by default
# (convt1d_dram_rich), where run 426 (library 426, tile_rt in the lean kernel) read 1.789 ms against run 417d's 1.601.
# 1. The tile-order and lean register-A tests on library 427.
# 2. Libraries 426 and 427 on KernelBench 64, alternating processes, 3 rounds (the question of run 427/428, on the card
#    that runs the lean kernel by default).
# 3. The H200 records with library 427: forward, KernelBench evaluation, forward+backward.
# Before the call, on the host: bash dev/probes/build_probe.sh cur; REV=6109d11 bash dev/probes/build_probe.sh l426
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in cur l426; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/lcur/libconvt1d_torch.so /tmp/lcur/libconvt1d_torch.torch_version /tmp/ll426/
export CONVT1D_LIBRARY=/tmp/lcur/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 80 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "test_wgmma_rs_tile_order or test_wgmma_rs_lean" > $R/tests_wgmma.txt 2>&1
 echo "wgmma tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -5 | cut -c1-250; tail -n 1 $R/tests_wgmma.txt)
for i in 1 2 3; do for v in cur l426; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes kernelbench_64 --modes fp32,fp16,bf16 --variants shipped --out $R/lean_${v}_$i.json > $R/lean_${v}_$i.txt 2>&1
  echo "lean $v $i ($SECONDS s): $(grep -E '^kernel' $R/lean_${v}_$i.txt | awk '{print $2, $4, $7}' | tr '\n' ' ')"
done; done
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-90
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -n 4 $R/kernelbench.txt | cut -c1-200
timeout 170 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^kernelbench_(64|74|79) +fp32_(fwd_bwd|bwd_input) " $R/bench_bwd.txt | cut -c1-100
