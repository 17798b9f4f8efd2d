#!/usr/bin/env bash
# Run 63: the stride-1 register-A grad_weight with grad_y rows sent by bulk copies (run 62: 4-byte cp.async
# staging capped it at ~0.45 words per clock per SM): its tests
# (forced and shipped, taken, deterministic), the strided grad_weight tests beside it, the sanitizer target,
# then grad_weight alone A/B against the mma.sync kernel it replaces, and cuDNN, on KernelBench 64 / 74.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight" 2>&1 | grep -E "passed|failed|Error|assert|^E " | tail -20) | tee $R/pytest_bw.txt
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_rs.py > $R/sanitizer_bw_rs.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY|grad_w" $R/sanitizer_bw_rs.txt | head -20
timeout 200 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_64,kernelbench_74 --modes fp32,fp16,bf16 \
  --variants old=CONVT1D_WGMMA_BW_RS:0,shipped --out $R/ab_bw_rs_bulk.json 2>&1 | tail -8
