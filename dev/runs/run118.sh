#!/usr/bin/env bash
# (The kernel change it tested was reverted after this run: the 256-position tiles lost, see gpu_tests_h100.md run 118.)
# Run 118 (session 13): the fused forward with 256-position tiles (512 threads) for stride-1 layers in 16-bit (up to 10
# k-steps: KernelBench 74): the fused forward / grad tests and the CUDA-graph test, its sanitizer target, and A/B on
# KernelBench 74 16-bit (shipped: the register-A wgmma forward; fused forced), twice.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for rep in 1 2; do
  timeout 60 python3 dev/python/ab_wgmma.py --shapes kernelbench_74 --modes fp16,bf16 --variants shipped,fused=CONVT1D_FWD_FUSED:1 --out $R/ab_fwd74_$rep.json 2>&1 | tail -2
done
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "fused or one_phase" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -12)
timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san_fwd_fused.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_fwd_fused.txt | head -3
