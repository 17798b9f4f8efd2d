#!/usr/bin/env bash
# Run 40: strided grad_input on the RS kernel for strides that do not divide the channel chunk (3, 5, 7):
# wgmma tests, sanitizer, grad_input and fwd+bwd of codec_dec_s5 (and the other strided layers) as shipped.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 220 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer_rs.txt 2>&1; echo "sanitizer rs exit $?"; grep -E "ERROR SUMMARY|s5_partial" $R/sanitizer_rs.txt | head -6
for v in 0 auto; do
  if [ $v = auto ]; then unset CONVT1D_WGMMA_RS; else export CONVT1D_WGMMA_RS=$v; fi
  timeout 120 python3 -m convt1d.bench --backward --shapes codec_dec_s5 --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input --budget-ms 40 --out $R/s5_rs$v.json > $R/s5_rs$v.txt 2>&1; echo "s5 rs=$v exit $?"; grep -E "^codec" $R/s5_rs$v.txt | awk '{print $1, $2, $3, $4, $5}'
done
