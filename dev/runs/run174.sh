#!/usr/bin/env bash
# Run 174 (session 17, last): grad_bias on unaligned rows by 128-bit loads between per-row heads and tails
# (bwd_direct.cu; CONVT1D_BIAS_ROWVEC=0: the old one-load-per-element path): its tests and the depthwise tests,
# the A/B on the bias rows of the suite, the committed forward+backward suite (ABBA), then as much of the rest of
# the Python suite on CUDA as the time allows (test_cuda.py whole, autograd, compile, functional, module, errors,
# examples, tools).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
(cd /tmp && timeout 90 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "grad_bias_rows or depthwise" > $R/pytest_new.txt 2>&1; echo "pytest new exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_new.txt | tail -8)
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_bias --shapes depthwise_s2,upsample_x8_bias,codec_dec_s5,hifigan_up1 --modes fp32,bf16 --budget-ms 40 \
  --variants "shipped,perelem=CONVT1D_BIAS_ROWVEC:0" --out $R/ab_bias.json > $R/ab_bias.txt 2>&1; echo "ab bias exit $? ($SECONDS s)"; cut -c1-200 $R/ab_bias.txt | tail -8
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^(kernelbench_(64|74|79)|depthwise_s2) .*fp32_(fwd_bwd|bwd_bias)" $R/bench_bwd.txt | cut -c1-80
left=$((555 - SECONDS)); echo "suite budget $left s"
(cd /tmp && timeout $left python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_autograd.py $OLDPWD/tests/python/test_compile.py $OLDPWD/tests/python/test_functional.py $OLDPWD/tests/python/test_module.py $OLDPWD/tests/python/test_errors.py $OLDPWD/tests/python/test_examples.py $OLDPWD/tests/python/test_tools.py $OLDPWD/tests/python/test_cuda.py -k "not depthwise and not grad_bias_rows" > $R/pytest_rest.txt 2>&1; echo "pytest rest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_rest.txt | tail -10; tail -c 300 $R/pytest_rest.txt)
