#!/usr/bin/env bash
# Run 12b (final, part 2): KernelBench evaluation, forward and backward benchmark suites, training example.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
timeout 100 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kernelbench exit $?"; tail -6 $R/kernelbench.txt
timeout 170 python3 -m convt1d.bench --budget-ms 200 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean|kernelbench_(64|74|79) " $R/bench_fwd.txt
timeout 220 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 150 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean|kernelbench_(64|74|79) .*fwd_bwd" $R/bench_bwd.txt
timeout 60 bash -c 'python3 examples/train_vocoder.py --device cuda --steps 300 && python3 examples/train_vocoder.py --device cuda --steps 300 --tf32' > $R/train.txt 2>&1; echo "train exit $?"; tail -4 $R/train.txt
