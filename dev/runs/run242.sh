#!/usr/bin/env bash
# Run 242 (session 22): the register-A stride-1 forward with one staged tile for both warpgroups (CONVT1D_WGMMA_RS_JOINT=1:
# rows of 256 positions leave as one 1 KB piece each, no ping-pong) against the shipped ping-pong tiles (512-byte
# pieces), KernelBench 74 / 64 in every mode; a sanity test pass of the staged forward with it forced.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_74,kernelbench_64 --modes fp32,fp32_strict,fp16,bf16 \
  --variants "shipped,nopp=CONVT1D_WGMMA_RS_PP:0,joint=CONVT1D_WGMMA_RS_JOINT:1,staged=CONVT1D_WGMMA_RS_EPI:staged,joint_staged=CONVT1D_WGMMA_RS_EPI:staged+CONVT1D_WGMMA_RS_JOINT:1" --out $R/ab_joint.json > $R/ab_joint.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-400 $R/ab_joint.txt | tail -9
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && CONVT1D_WGMMA_RS_JOINT=1 timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs and not bi and not bwd" > $R/pytest_joint.txt 2>&1; echo "pytest joint exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_joint.txt | tail -6)
