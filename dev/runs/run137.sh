#!/usr/bin/env bash
# Run 137 (session 14): the whole Python suite (tests/python, GPU tests included) on the final library (unit plane
# transposes, shift 0 from x, 16-bit stride-8 grad_input on the SS path under four register-A tiles per SM), then the
# suite bench rows of hifigan_up1 with --backward (the one shape whose kernel choice changed after run 134).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 470 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED|^ERROR" $R/pytest.txt | tail -10)
timeout 90 python3 -m convt1d.bench --backward --shapes hifigan_up1 --modes fp16_fwd_bwd,bf16_fwd_bwd,bf16_bwd_input,fp32_bwd_input --out $R/bench_hifigan_up1.json > $R/bench_hifigan_up1.txt 2>&1; echo "bench exit $?"; grep -E "hifigan_up1 " $R/bench_hifigan_up1.txt | head -6
