#!/usr/bin/env bash
# Run 165 (session 16): final library (pairs tests hoisted out of the A loads, forward and strided grad_input): A/B of
# the strided grad_input, its tests; then the committed results (forward, forward+backward, KernelBench evaluation).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes upsample_x8_bias,hifigan_up3,codec_dec_s5 --modes bf16 --budget-ms 80 \
  --variants "shipped,perload=CONVT1D_WGMMA_RS_HOIST:0" --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; echo "ab exit $?"; cut -c1-250 $R/ab_bi.txt | tail -3
(cd /tmp && timeout 120 python3 -m pytest -q -x --timeout=100 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_input_strided or rs_grad_input" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -4)
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^kernelbench_(64|74|79) " $R/bench_fwd.txt | cut -c1-80
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -4 $R/kernelbench.txt
