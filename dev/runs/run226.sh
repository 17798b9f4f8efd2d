#!/usr/bin/env bash
# Run 226 (session 21): two blocks per SM for the register-A forward's 64x1 tiles (CONVT1D_WGMMA_RS_MINB=2, an
# experiment: more independent warps per SM for the latency-bound memory-bound layers): forward tests with it, then
# the A/B on the stride-1 KernelBench layers against the shipped tiles and 64x1 at one block per SM.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && CONVT1D_WGMMA_RS_MINB=2 timeout 100 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and (rs64x1 or rsdirect)" > $R/pytest_minb.txt 2>&1; echo "pytest minb exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_minb.txt | head -8)
V="shipped,t64x1=CONVT1D_WGMMA_RS_TILE:64x1,m2=CONVT1D_WGMMA_RS_TILE:64x1+CONVT1D_WGMMA_RS_MINB:2,m2_direct=CONVT1D_WGMMA_RS_TILE:64x1+CONVT1D_WGMMA_RS_MINB:2+CONVT1D_WGMMA_RS_EPI:direct"
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 100 --shapes kernelbench_74,kernelbench_64,hifigan_up4 --modes fp32,fp32_strict,bf16 \
  --variants "$V" --out $R/ab_minb.json > $R/ab_minb.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-330 $R/ab_minb.txt | tail -9
