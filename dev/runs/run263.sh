#!/usr/bin/env bash
# Run 263 (session 24, final library): the grouped forward's TF32 default back on the mma.sync kernel (run 262); the
# wgmma tests run 262's time limit cut (grouped, one-phase, planes, edge: the end of the file), then the committed
# results: the forward suite and the forward+backward suite with every per-gradient mode.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
(cd /tmp && timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grouped or one_phase or planes_units or edge" > $R/pytest_wgmma_tail.txt 2>&1; echo "pytest wgmma tail exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Error|assert" $R/pytest_wgmma_tail.txt | tail -6)
timeout 100 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|grouped_g4) " $R/bench_fwd.txt | cut -c1-110
timeout 260 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^grouped_g4 " $R/bench_bwd.txt | cut -c1-80
