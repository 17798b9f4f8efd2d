#!/usr/bin/env bash
# Run 68: the register-A grad_weight extended to strides 2..4 (grad_y columns s elements apart in the staged
# window): the wgmma test file, the sanitizer target (now with strides 2 and 4), and grad_weight alone A/B
# against the kernels it replaces on the stride-2 suite shapes (KernelBench 79: mma.sync; 16-bit falls
# back there, odd grad_y length) and the stride-1 ones as a check.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 260 python3 -m pytest -q -x --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "wgmma exit $?"; grep -E "passed|failed|^E " $R/pytest_wgmma.txt | tail -6)
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_rs.py > $R/sanitizer_bw_rs.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY|s2_|s4_" $R/sanitizer_bw_rs.txt
timeout 150 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_79,hifigan_up3,hifigan_up4,kernelbench_64 --modes fp32,bf16 \
  --variants old=CONVT1D_WGMMA_BW_RS:0,shipped --out $R/ab_bw_rs_strided.json 2>&1 | tail -8
