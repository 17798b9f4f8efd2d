#!/usr/bin/env bash
# Run 10: 16-bit backward pipelines (raw halves by cp.async + repack) validated and A/B-timed; the whole
# backward suite and the latency shapes with interleaved timing. Needs CONVT1D_LIBRARY (carried build).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader
# 1. backward tensor-core harness: memcheck over the validation, validation (7 variants incl. bf16-np), kernel timings
SANITIZE=1 timeout 330 bash dev/cuda/bwd/run.sh > $R/bwd_harness.txt 2>&1; echo "bwd harness exit $?"
grep -E "ERROR SUMMARY|PASSED|FAILED|failure" $R/bwd_harness.txt | head; sed -n '/== timing/,$p' $R/bwd_harness.txt
# 2. CUDA self-test against the carried library
LIB=$CONVT1D_LIBRARY FORCE_LIB=1 timeout 200 bash tests/cuda/build_and_run.sh > $R/cudatest.txt 2>&1; echo "cudatest exit $?"; tail -1 $R/cudatest.txt
# 3. backward suite, every mode
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 150 --out $R/bwd.json 2>&1 | grep -E "_(fwd_bwd|bwd_input|bwd_weight) |geomean"
# 4. latency shapes, forward, interleaved timing
python3 -m convt1d.bench --shapes kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8 --budget-ms 150 --out $R/lat.json 2>&1 | grep -E "^(kern|single)"
