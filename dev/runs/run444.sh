#!/usr/bin/env bash
# Run 444 (session 49), asked for an H200: on an H200, library 440's H200 records (test_cuda.py + test_autograd.py, the
# forward, KernelBench, the forward with the packed-weight cache, forward+backward; the weight-cache record is still
# library 426's); on an H100 (which the request may get: runs 431, 431b, 437 did), the fuzz on library 440 with two new
# seeds instead (default paths; the H200-class defaults, CONVT1D_DRAM_RICH=1). Before the call: bash
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
if grep -q H200 $R/gpu.txt; then
  (cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
   echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt)
  tar -C "$OUT" -czf "$OUT/results.tgz" r
  timeout 100 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-120
  tar -C "$OUT" -czf "$OUT/results.tgz" r
  timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -n 4 $R/kernelbench.txt | cut -c1-200
  timeout 100 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt
  tar -C "$OUT" -czf "$OUT/results.tgz" r
  timeout 180 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt
else
  fz() { # name seed budget [env...]
    local n=$1 s=$2 b=$3; shift 3
    env "$@" timeout $((b + 60)) python3 dev/python/fuzz.py --seed $s --count 5000 --time-budget $b --out $R/fuzz_$n.json \
      > $R/fuzz_$n.txt 2>&1
    echo "fuzz $n exit $? ($SECONDS s): $(tail -1 $R/fuzz_$n.txt)"; grep FAIL $R/fuzz_$n.txt | head -3 | cut -c1-300
    tar -C "$OUT" -czf "$OUT/results.tgz" r
  }
  fz default54 54 170 CONVT1D_X=0
  fz dramrich55 55 120 CONVT1D_DRAM_RICH=1
fi
