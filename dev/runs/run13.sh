#!/usr/bin/env bash
# Run 13 (final): the small-grid tile rule (CONVT1D_TC_FILL) validated and A/B-timed, and the forward
# suite at the final commit. Needs CONVT1D_LIBRARY (carried build); writes $OUT.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 150 python3 -m pytest -q -x --timeout=600 -p no:cacheprovider $OLDPWD/tests/python -k cuda > $R/pytest_cuda.txt 2>&1; echo "pytest exit $?"); tail -1 $R/pytest_cuda.txt
LIB=$CONVT1D_LIBRARY FORCE_LIB=1 timeout 120 bash tests/cuda/build_and_run.sh --no-large > $R/cudatest.txt 2>&1; echo "cudatest exit $?"; tail -1 $R/cudatest.txt
M=fp32_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input
for fill in 1 0; do
  CONVT1D_TC_FILL=$fill timeout 60 python3 -m convt1d.bench --shapes single_utterance_x8 --budget-ms 300 --out $R/fill${fill}_fwd.json 2>&1 | grep -E "^single"
  CONVT1D_TC_FILL=$fill timeout 60 python3 -m convt1d.bench --backward --shapes single_utterance_x8 --modes $M --budget-ms 300 --out $R/fill${fill}_bwd.json 2>&1 | grep -E "^single"
done
timeout 200 python3 -m convt1d.bench --budget-ms 200 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt
