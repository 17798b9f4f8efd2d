#!/usr/bin/env bash
# Run 121 (session 13): 16-bit position pairs in the register-A forward (PAIRS, revived from run 59 for stride 1 with
# adjacent taps): A/B on KernelBench 64 forward and grad_input and KernelBench 74 (pairs forced there), twice; the
# wgmma forward tests (every pick, rspairs*), the pairs test, the grad_input taken tests; sanitizer with pairs forced.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for rep in 1 2; do
  timeout 90 python3 dev/python/ab_wgmma.py --shapes kernelbench_64 --modes fp16,bf16 --variants shipped,nopairs=CONVT1D_WGMMA_RS_PAIRS:0 --out $R/ab_fwd64_$rep.json 2>&1 | tail -2
  timeout 90 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64 --modes fp16,bf16 --variants shipped,nopairs=CONVT1D_WGMMA_RS_PAIRS:0 --out $R/ab_bi64_$rep.json 2>&1 | tail -2
  timeout 90 python3 dev/python/ab_wgmma.py --shapes kernelbench_74 --modes fp16,bf16 --variants shipped,pairs=CONVT1D_WGMMA_RS_PAIRS:1 --out $R/ab_fwd74_$rep.json 2>&1 | tail -2
done
(cd /tmp && timeout 240 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or rs_pairs or rs_taken or grad_input_taken" > $R/pytest_wg.txt 2>&1; echo "pytest wgmma exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_wg.txt | tail -8)
CONVT1D_WGMMA_RS_PAIRS=1 SAN_TILES=auto,128x2,64x1,256x1,bulk,staged,pp timeout 150 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd_rs.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY" $R/san_fwd_rs.txt | head -2; tail -3 $R/san_fwd_rs.txt
