#!/usr/bin/env bash
# Run 248 (session 23): carried rows in the joint staged TF32 stride-1 forward (WgArgs::carry: contiguous tile runs per
# block, each row's tail past its last 128-byte line boundary sent with the next tile): A/B on KernelBench 74 in every
# mode (plus joint + carry forced in split TF32 and, without position pairs, in 16-bit); the new carry tests, memcheck on
# them, test_cuda.py + test_autograd.py (the fused forward's host change of cf1b32c). The whole wgmma file: run 249.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_74 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,nocarry=CONVT1D_WGMMA_RS_CARRY:0,joint=CONVT1D_WGMMA_RS_JOINT:1+CONVT1D_WGMMA_RS_EPI:staged+CONVT1D_WGMMA_RS_PAIRS:0,joint_nocarry=CONVT1D_WGMMA_RS_JOINT:1+CONVT1D_WGMMA_RS_EPI:staged+CONVT1D_WGMMA_RS_PAIRS:0+CONVT1D_WGMMA_RS_CARRY:0" \
  --out $R/ab_carry.json > $R/ab_carry.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-300 $R/ab_carry.txt | tail -6
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k carry > $R/pytest_carry.txt 2>&1; echo "pytest carry exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_carry.txt | tail -6)
(cd /tmp && timeout 60 compute-sanitizer --tool memcheck python3 -m pytest -q -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "carry and kb74_long and (tf32 or f16) and 1]" > $R/san_carry.txt 2>&1; echo "san carry exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|passed|failed" $R/san_carry.txt | tail -3)

(cd /tmp && timeout 110 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_cuda.txt | tail -4)
