#!/usr/bin/env bash
# Run 171 (session 17): the new depthwise grad_weight (block partials over x tiles and grad_y windows, then a
# fixed-order sum): tests of the depthwise forward and both gradients, compute-sanitizer, the depthwise shapes'
# gradients against cuDNN, grad_weight A/B against the direct kernels (CONVT1D_FORCE_DIRECT).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=100 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "depthwise" > $R/pytest_dw.txt 2>&1; echo "pytest dw exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_dw.txt | tail -8)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 dev/python/san_depthwise.py > $R/san_dw.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_dw.txt | tail -3
timeout 90 python3 -m convt1d.bench --backward --shapes depthwise_s2,antialias_up2_depthwise --modes fp32_fwd_bwd,bf16_fwd_bwd,fp32_bwd_weight,bf16_bwd_weight --budget-ms 100 --out $R/bench_dw_bwd.json > $R/bench_dw_bwd.txt 2>&1; echo "bench dw bwd exit $?"; grep -E "^(depthwise|antialias)" $R/bench_dw_bwd.txt | cut -c1-120
timeout 80 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,bf16 --budget-ms 100 \
  --variants "shipped,direct=CONVT1D_FORCE_DIRECT:1" --out $R/ab_dw_bw.json > $R/ab_dw_bw.txt 2>&1; echo "ab exit $?"; cut -c1-250 $R/ab_dw_bw.txt | tail -4
