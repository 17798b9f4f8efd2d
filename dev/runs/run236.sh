#!/usr/bin/env bash
# Run 236 (session 22): the phase-fused forward sends each y row between 128-byte boundaries (CONVT1D_FUSED_LINE,
# default on where it fits): tests (test_cuda.py with the per-tile test on / off, test_autograd.py, the wgmma file's
# one-phase and heuristic tests), sanitizer (256 forced, and 128 forced), KernelBench 79 A/B in every mode.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_79 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,noline=CONVT1D_FUSED_LINE:0,bt128=CONVT1D_FUSED_BT:128,fused256=CONVT1D_FWD_FUSED:1" --out $R/ab_line.json > $R/ab_line.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-260 $R/ab_line.txt | tail -5
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_cuda.txt | tail -6)
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "one_phase or fused or heuristic" > $R/pytest_wg.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_wg.txt | tail -6)
for bt in 256 128; do CONVT1D_FUSED_BT=$bt timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san_$bt.txt 2>&1; echo "san $bt exit $?"; grep -E "ERROR SUMMARY|Invalid" $R/san_$bt.txt | head -3; done
