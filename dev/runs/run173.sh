#!/usr/bin/env bash
# Run 173 (session 17): committed results of the library of run 172 (8eae73d), on the same warm H100: the forward
# suite, the forward+backward suite (ABBA), the KernelBench evaluation; the wgmma forward tests (pairs rule).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d_torch.so ] || bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^kernelbench_(64|74|79) " $R/bench_fwd.txt | cut -c1-80
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^kernelbench_(64|74|79) .*fp32_fwd_bwd" $R/bench_bwd.txt | cut -c1-80
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -4 $R/kernelbench.txt
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or rs_edge" > $R/pytest_wg.txt 2>&1; echo "pytest wg exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_wg.txt | tail -6)
