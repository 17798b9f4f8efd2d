#!/usr/bin/env bash
# Run 258 (session 24): one input box per stage (WgArgs::xsplit) in the register-A forward, the layout that moved
# KernelBench 74's traffic 5% faster in store_probe74 (runs 256-257): A/B on KernelBench 74 TF32 (ring of 2 / 3 / 4
# half-tile stages against the shipped two whole tiles), then the register-A forward tests and memcheck with the
# split forced wherever it applies.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
X=CONVT1D_WGMMA_RS_XSPLIT; S=CONVT1D_WGMMA_RS_XSTAGES
timeout 120 python3 dev/python/ab_wgmma.py --order rotate --budget-ms 80 --shapes kernelbench_74 --modes fp32 \
  --variants "shipped,xs0=$X:0,xs3=$S:3,xs4=$S:4" --out $R/ab_xsplit.json > $R/ab_xsplit.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-400 $R/ab_xsplit.txt | tail -4
(cd /tmp && CONVT1D_WGMMA_RS_XSPLIT=1 timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward and rs" > $R/pytest_xsplit.txt 2>&1; echo "pytest xsplit exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_xsplit.txt | tail -4)
CONVT1D_WGMMA_RS_XSPLIT=1 timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
