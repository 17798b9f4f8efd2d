#!/usr/bin/env bash
# Run 325 (session 30, the vectorized weight pack, f7d2b2b's library): tests (the pack, the weight cache, test_cuda.py, test_autograd.py), then
# the committed results as run 320: forward, forward --weight-cache, forward+backward, the KernelBench evaluation
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
timeout 60 python3 -m pytest -q tests/python/test_cuda_wgmma.py -k "rs_pack" > $R/tests_pack.txt 2>&1; echo "pack tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_pack.txt | head; tail -1 $R/tests_pack.txt
timeout 200 python3 -m pytest -q tests/python/test_weight_cache.py tests/python/test_cuda.py tests/python/test_autograd.py > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head; tail -1 $R/tests.txt
timeout 120 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|codec_dec_s5|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-110
timeout 120 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt
timeout 130 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -6 $R/kernelbench.txt | cut -c1-220
