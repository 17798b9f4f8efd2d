#!/usr/bin/env bash
# Run 333 (session 31): the module's host path (weight and bias from the parameter dict, the eager ops' C++ callables
# called directly) against the previous Python package (.carry/py_old: c3b4e80^'s python/), the latency rows and
# single_utterance_x8 in alternating processes, 3 rounds; then the committed results: the forward suite, plain and with
# the weight cache (library: the a5c50e2 build, device code = acf6090's).
set -u
export CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
PYTHONPATH=$PWD/python python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
PYTHONPATH=$PWD/python timeout 60 python3 -m pytest -q tests/python/test_module.py tests/python/test_weight_cache.py > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -5; tail -1 $R/tests.txt
LAT=single_utterance_x8,kernelbench_64_small,kernelbench_74_small,kernelbench_79_small
for i in 1 2 3; do for v in old new; do
  pp=$PWD/python; [ $v = old ] && pp=$PWD/.carry/py_old/python
  PYTHONPATH=$pp timeout 60 python3 -m convt1d.bench --shapes $LAT --modes fp32,fp16,bf16 --budget-ms 100 --out $R/lat_${v}_$i.json > $R/lat_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(single|kernelbench)' $R/lat_${v}_$i.txt | awk '{print $1, $3, $4, $5, $6}' | tr '\n' ';')"
done; done
export PYTHONPATH=$PWD/python
timeout 150 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-100
timeout 150 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt; grep -E "^(upsample_x8_bias|hifigan_up1|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd_wcache.txt | cut -c1-100
