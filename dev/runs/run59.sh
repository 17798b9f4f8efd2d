#!/usr/bin/env bash
# Run 59: 16-bit position pairs in the RS kernel (32-bit A loads at even tap shifts, 32-bit output stores):
# RS / taken tests, sanitizer, A/B against run 55-58 numbers (shipped; ping-pong off for reference).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs or heuristic or adjoint or strided or taken" 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer_rs.txt 2>&1; echo "sanitizer rs exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_rs.txt
timeout 120 python3 dev/python/ab_wgmma.py --shapes kernelbench_64,kernelbench_74,kernelbench_79,hifigan_up3,hifigan_up4,upsample_x8_bias,codec_dec_s8 --modes bf16,fp16 --variants "shipped,nopp=CONVT1D_WGMMA_RS_PP:0,shipped2" --budget-ms 30 --out $R/ab_pairs.json 2>&1 | tee $R/ab_pairs.txt | cut -c1-400
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes hifigan_up3,hifigan_up4,upsample_x8_bias --modes bf16 --variants "shipped" --budget-ms 30 --out $R/ab_pairs_bi.json 2>&1 | tee $R/ab_pairs_bi.txt | cut -c1-400
