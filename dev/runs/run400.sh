#!/usr/bin/env bash
# Run 400 (session 39, H200): library 400 = 395 + resident weights up to 96 KB for TF32 stride-1 layers on the H200
# class (host code only; runs 397-398: KernelBench 74's TF32 grad_input, 80 KB, resident 0.749 / 0.746 against 0.814 /
# 0.765 ms per stage). Tests (H200 defaults, lean, the TF32 register-A forward picks with resident / staged weights);
# rotated in one process, 5 rounds, shipped / weights per stage (WRES=0, the old pick for that layer); the
# forward+backward record with it.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_400.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_lean or dram_rich or (test_wgmma_forward and tf32 and (rs or rswres or rsnowres))" > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -6 | cut -c1-250; tail -1 $R/tests.txt)
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --shapes kernelbench_74,kernelbench_64 --modes fp32 --kind bwd_input \
  --variants shipped,wres0=CONVT1D_WGMMA_RS_WRES:0 --out $R/wres_gi.json > $R/wres_gi.txt 2>&1; echo "wres gi exit $? ($SECONDS s)"
grep -E "^kern" $R/wres_gi.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
timeout 170 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^kernelbench_(64|74|79) +fp32_(fwd_bwd|bwd_input) " $R/bench_bwd.txt | cut -c1-100
