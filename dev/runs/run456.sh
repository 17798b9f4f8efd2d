#!/usr/bin/env bash
# Run 456 (prepared in Session 51, for a session with an H200 and device time after run 455): the H200 records with
# library 455 (HEAD's source; the H200 records in bench/results/ are library 427's, run 429, and 426's for the weight
# cache, run 426). 1. test_cuda.py + test_autograd.py on the H200 (the H200-class defaults, convt1d_dram_rich, take
# other kernels than the H100's). 2. Forward record, KernelBench evaluation, forward+backward record, weight-cache
# forward record, the zoo's forward+backward. ~8 min.
# Before the call (~7 min on 2 cores): bash dev/probes/build_probe.sh l455 (the same library as run 455); carry it.
# Afterwards: copy r/bench_fwd.json, kernelbench.json, bench_bwd.json, bench_wc.json to bench/results/h200_fwd.json,
# h200_kernelbench.json, h200_fwd_bwd.json, h200_fwd_weight_cache.json (+ png), and the README's H200 section.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l455 && xz -dc .carry/libconvt1d_l455.so.xz > /tmp/l455/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l455 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l455/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt)
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1
echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/bench_fwd.txt; grep -E "^kernelbench_(64|74|79) " $R/bench_fwd.txt | cut -c1-90
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -n 4 $R/kernelbench.txt | cut -c1-200
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 170 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight \
  --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/bench_bwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 100 python3 -m convt1d.bench --weight-cache --budget-ms 60 --out $R/bench_wc.json --plot $R/bench_wc.png > $R/bench_wc.txt 2>&1
echo "bench weight cache exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/bench_wc.txt
