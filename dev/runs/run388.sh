#!/usr/bin/env bash
# Run 388 (session 38, H200): library 388 = 381 + the lean register-A kernel for 16-bit 64x2 tiles only (run 387: the
# TF32 and 128-row lean kernels lost or tied; the fused 128x1 tile lost and is gone); the other kernels' SASS is 381's.
# 1) The lean test and the register-A forward tests as run 381 selected them. 2) Lean on / off rotated, 3 rounds,
# KernelBench 74 16-bit forward and grad_input. 3) The forward suite and the KernelBench evaluation (the H200 records).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l388 && xz -dc .carry/libconvt1d_388.so.xz > /tmp/l388/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l388 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l388/libconvt1d.so
(cd tests/python && timeout 170 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_lean or dram_rich or rounded_boxes or fast_epilogue or (test_wgmma_forward and (rs or rspp or rsdirect or rsstaged))" > $R/tests_wgmma.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -6 | cut -c1-250; tail -1 $R/tests_wgmma.txt)
for k in fwd bwd_input; do
  timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes kernelbench_74 --modes fp16,bf16 --kind $k \
    --variants shipped,lean0=CONVT1D_WGMMA_RS_LEAN:0 --out $R/lean_$k.json > $R/lean_$k.txt 2>&1; echo "lean $k exit $? ($SECONDS s)"
  grep -E "^kern" $R/lean_$k.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-200
done
timeout 110 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|hifigan_up[1-4]|codec_dec_s[58]|upsample_x8_bias|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-90
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-200
