#!/usr/bin/env bash
# Run 442 (prepared in session 48, run in session 49): test_cuda.py + test_autograd.py on library 440 as built from
# 3583568 (the review's mends df355ca had not run on a GPU), then the H100 forward+backward record with it (the tiny rule
# takes the latency rows' TF32-mode gradients to fp32 accuracy too). ~6 minutes. Before the call: bash
# dev/probes/build_probe.sh l440.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l440 && xz -dc .carry/libconvt1d_l440.so.xz > /tmp/l440/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l440 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l440/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt)
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 220 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^kernelbench_(64|74|79)(_small)? +fp32_(fwd_bwd|bwd_input) " $R/bench_bwd.txt | cut -c1-120
