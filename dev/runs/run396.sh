#!/usr/bin/env bash
# Run 396 (session 39, H200): library 396 = 395 + TF32 position pairs in the lean kernel behind the trial switch
# CONVT1D_WGMMA_RS_PAIRS32=1 (fragment rows g, g + 8 = positions 2g, 2g + 1: one 8-byte A load per channel pair where
# the tap shift is even, 8-byte stores). Tests of it and of the lean kernel; rotated in one process (3 rounds),
# KernelBench 74 and 64 TF32, forward and grad_input, pairs on / off.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l396 && xz -dc .carry/libconvt1d_396.so.xz > /tmp/l396/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l396 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l396/libconvt1d.so
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "tf32_pairs or rs_lean" > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -6 | cut -c1-250; tail -1 $R/tests.txt)
sweep() { # name shapes modes variants [kind]
  timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes $2 --modes $3 --kind ${5:-fwd} \
    --variants $4 --out $R/sweep_$1.json > $R/sweep_$1.txt 2>&1; echo "sweep $1 exit $? ($SECONDS s)"
  grep -E "^kern" $R/sweep_$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
}
sweep pairs32 kernelbench_74,kernelbench_64 fp32 shipped,pairs32=CONVT1D_WGMMA_RS_PAIRS32:1
sweep pairs32_gi kernelbench_74,kernelbench_64 fp32 shipped,pairs32=CONVT1D_WGMMA_RS_PAIRS32:1 bwd_input
# The records with library 396 as shipped (pairs off: its other kernels' SASS is library 395's): forward suite,
# KernelBench evaluation, forward+backward.
timeout 110 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)) " $R/bench_fwd.txt | cut -c1-90
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-200
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
timeout 170 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^kernelbench_(64|74|79) +fp32_(fwd_bwd|bwd_input) " $R/bench_bwd.txt | cut -c1-100
