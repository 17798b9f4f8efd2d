#!/usr/bin/env bash
# Run 27 (results of session 5): CUDA pytest, the whole forward suite in four modes, forward+backward and
# per-gradient modes over the suite, KernelBench-style evaluation.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python -k "cuda" 2>&1 | tail -3) | tee $R/pytest_cuda.txt
timeout 200 python3 -m convt1d.bench --budget-ms 200 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt
timeout 260 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 120 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt
timeout 100 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -8 $R/kernelbench.txt
