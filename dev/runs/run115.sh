#!/usr/bin/env bash
# Run 115 (session 13): the fused one-phase grad_weight (bwd_weight_phase_fused.cu), first GPU run: its tests
# (forced / shipped, every mode), the CUDA-graph test of the three fused kernels, the one-phase grad_weight tests
# it must not disturb, the sanitizer, A/B on KernelBench 79 (fused vs the kernels before), fwd+bwd of KernelBench 79.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "bwd_weight_fused or in_cuda_graph" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -12)
(cd /tmp && timeout 60 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "one_phase" > $R/pytest_wg.txt 2>&1; echo "pytest wgmma exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_wg.txt | tail -5)
timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_fused.py > $R/san_bwd_weight_fused.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_bwd_weight_fused.txt | head -3
timeout 90 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16 --variants shipped,off=CONVT1D_BWD_WEIGHT_FUSED:0 --out $R/ab_bw_fused.json > $R/ab_bw_fused.txt 2>&1; echo "ab exit $?"; tail -12 $R/ab_bw_fused.txt
timeout 90 python3 -m convt1d.bench --backward --shapes kernelbench_79 --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_weight,fp32_strict_bwd_weight,bf16_bwd_weight --budget-ms 60 --out $R/bench_kb79.json > $R/bench_kb79.txt 2>&1; echo "bench exit $?"; grep -E "kernelbench_79" $R/bench_kb79.txt | head -10
