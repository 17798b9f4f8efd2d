#!/usr/bin/env bash
# Run 93 (H200): grad_weight of layers whose taps read one phase of grad_y (KernelBench 79): gathered
# phase + register-A kernel at stride 1. Tests, sanitizer, A/B, KernelBench rows of the bench.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_bw_phase.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san.txt | head -4
timeout 120 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_79 --modes bf16,fp16,fp32 \
  --variants shipped,nophase=CONVT1D_WGMMA_BW_PHASE:0,phase=CONVT1D_WGMMA_BW_PHASE:1 --out $R/ab_bw_phase.json > $R/ab.txt 2>&1; echo "ab exit $?"; tail -4 $R/ab.txt
timeout 120 python3 -m convt1d.bench --backward --shapes kernelbench_79,kernelbench_79_small --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_weight,bf16_bwd_weight --budget-ms 60 --out $R/bench_kb79.json > $R/bench.txt 2>&1; echo "bench exit $?"; grep -E "kernelbench_79 " $R/bench.txt
