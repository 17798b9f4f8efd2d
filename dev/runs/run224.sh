#!/usr/bin/env bash
# Run 224 (session 21): TMA weight multicast across clusters of two blocks (session 20's 120a00a, re-applied on this
# library in a scratch build, .carry/libconvt1d_cl.so.xz) on the stride-1 KernelBench layers, which run 20 did not
# measure: KernelBench 64 TF32 reads 192 KB of weights from L2 per 256-position tile (3.1 GB per call beside 4.3 GB of
# DRAM traffic). In one process on that library: shipped (no clusters at stride 1) vs CONVT1D_WGMMA_RS_CLUSTER=1.
# Then the H100's matmul ceilings (torch.matmul, TF32 and bf16), for the vocoder targets' arithmetic.
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1 CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry/libconvt1d_cl.so.xz > /tmp/libconvt1d_cl.so
export CONVT1D_LIBRARY=/tmp/libconvt1d_cl.so
(cd /tmp && CONVT1D_WGMMA_RS_CLUSTER=1 timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and (kb64 or kb74) and (rs or heuristic) and not rsbulk and not rscp" > $R/pytest_cl.txt 2>&1; echo "pytest cl exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_cl.txt | head -8)
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 100 --shapes kernelbench_64,kernelbench_74 --modes fp32,fp32_strict,bf16 \
  --variants "shipped,cl=CONVT1D_WGMMA_RS_CLUSTER:1" --out $R/ab_cl.json > $R/ab_cl.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-200 $R/ab_cl.txt | tail -6
python3 - <<'P' 2>&1 | tee $R/matmul_ceiling.txt
import torch
from triton.testing import do_bench
n = 8192
for name, dt, tf32 in (("tf32", torch.float32, True), ("bf16", torch.bfloat16, False), ("fp16", torch.float16, False)):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    a = torch.randn(n, n, device="cuda", dtype=dt); b = torch.randn(n, n, device="cuda", dtype=dt)
    t = do_bench(lambda: a @ b, warmup=50, rep=500, return_mode="median")
    print(f"matmul {name} {n}^3: {t:.3f} ms {2 * n ** 3 / t / 1e9:.1f} TFLOP/s")
P
