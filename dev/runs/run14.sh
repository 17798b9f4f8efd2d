#!/usr/bin/env bash
# Run 14 (final commit): forward suite, and the backward modes of single_utterance_x8 (the only suite
# shape whose kernels changed after run 12b). Needs CONVT1D_LIBRARY (carried build); writes $OUT.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
timeout 60 python3 -m convt1d.bench --backward --shapes single_utterance_x8 --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input --budget-ms 300 --out $R/single_bwd.json 2>&1 | grep -E "^single"
timeout 200 python3 -m convt1d.bench --budget-ms 200 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean|^single|^kernelbench_(64|74|79) " $R/bench_fwd.txt
