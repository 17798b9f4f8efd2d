#!/usr/bin/env bash
# Run 43 (= run 42 after the fix: tensor maps encoded after the first runtime call): validation of the final commit: wgmma tests, the
# other CUDA tests, sanitizer, and a timing sanity check of the forward and strided grad_input.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 220 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
timeout 120 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer_rs.txt 2>&1; echo "sanitizer rs exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_rs.txt
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python -k "cuda and not wgmma" 2>&1 | tail -1) | tee $R/pytest_cuda.txt
timeout 100 python3 -m convt1d.bench --backward --shapes kernelbench_64,kernelbench_74,hifigan_up3,codec_dec_s5 --modes fp32,bf16,fp32_bwd_input,bf16_bwd_input --budget-ms 40 --out $R/sanity.json > $R/sanity.txt 2>&1; echo "sanity exit $?"; grep -E "^(kernel|hifi|codec)" $R/sanity.txt | awk '{print $1, $2, $3, $4, $5}'
