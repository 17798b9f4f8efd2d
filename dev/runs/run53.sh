#!/usr/bin/env bash
# Run 53: ping-pong tiles for the register-A kernel (CONVT1D_WGMMA_RS_PP=1): RS tests (every pick, rspp
# included), sanitizer, A/B of ping-pong with and without resident weights / staged epilogue.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs or heuristic or adjoint or strided or taken" 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer_rs.txt 2>&1; echo "sanitizer rs exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_rs.txt
P=CONVT1D_WGMMA_RS_PP; W=CONVT1D_WGMMA_RS_WRES; E=CONVT1D_WGMMA_RS_EPI
V="shipped,pp=$P:1,ppw=$P:1+$W:1,ppws=$P:1+$W:1+$E:staged,pps=$P:1+$E:staged,shipped2"
timeout 170 python3 dev/python/ab_wgmma.py --shapes kernelbench_64,kernelbench_74,hifigan_up2,hifigan_up3,hifigan_up4 --modes fp32,bf16,fp32_strict --variants $V --budget-ms 30 --out $R/ab_pp.json 2>&1 | tee $R/ab_pp.txt | cut -c1-600
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64,kernelbench_74,hifigan_up3,hifigan_up4 --modes fp32,bf16 --variants "shipped,pp=$P:1,ppw=$P:1+$W:1" --budget-ms 30 --out $R/ab_pp_bi.json 2>&1 | tee $R/ab_pp_bi.txt | cut -c1-600
