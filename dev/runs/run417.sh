#!/usr/bin/env bash
# Run 417 (session 43): the final library 415 (run 415, H100: rule tests 204, test_cuda.py + test_autograd.py 1728
# passed) on whichever card comes: the forward record, the KernelBench evaluation, the forward+backward record and the
# weight-cache forward record. Library 415's kernels are library 411's (sass_diff); its picks differ from 411's on the
# H100 only (rs_s1_direct, 256x1 past 512 rows), so on an H200 these are the final library's records with the edge
# kernel of Session 41 (run 396's were library 396).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_415.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
timeout 120 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)) " $R/bench_fwd.txt | cut -c1-90
timeout 140 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt; grep -E "^(kernelbench_(64|74|79)) " $R/bench_fwd_wcache.txt | cut -c1-90
# The H100 has these two from run 415 with the same library; the H200's are library 396 / 400.
grep -q H100 $R/gpu.txt && exit 0
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-200
timeout 170 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^kernelbench_(64|74|79) +fp32_(fwd_bwd|bwd_input) " $R/bench_bwd.txt | cut -c1-100
