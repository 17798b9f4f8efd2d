#!/usr/bin/env bash
# Run 50: validation of the session's RS changes with the shipped defaults (staged epilogue for split TF32 and
# the strided grad_input, resident weights up to 64 KB): the whole wgmma test file, an A/B of a start skew
# between the two consumer warpgroups (CONVT1D_WGMMA_RS_SKEW, experiment) with clocks and power logged,
# both sanitizer targets, the other CUDA tests.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 230 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 200 > $R/clocks.csv 2>&1 &
SMI=$!
K=CONVT1D_WGMMA_RS_SKEW
timeout 90 python3 dev/python/ab_wgmma.py --shapes kernelbench_64,kernelbench_74 --modes fp32,bf16 --variants "shipped,s1k=$K:1000,s3k=$K:3000,s6k=$K:6000,shipped2" --budget-ms 30 --out $R/ab_skew.json 2>&1 | tee $R/ab_skew.txt | cut -c1-500
kill $SMI 2>/dev/null
awk -F', ' 'NR>1{print $2, $4, $6}' $R/clocks.csv | sort | uniq -c | sort -rn | head -8
timeout 110 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer_rs.txt 2>&1; echo "sanitizer rs exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_rs.txt
timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight.py > $R/sanitizer_bw.txt 2>&1; echo "sanitizer bw exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_bw.txt
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python -k "cuda and not wgmma" 2>&1 | tail -4) | tee $R/pytest_cuda.txt
