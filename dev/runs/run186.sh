#!/usr/bin/env bash
# Run 186 (session 19, first): the library of bc59cae (review refactor of session 18, never run on a GPU): the
# grad_input grouped-row and grad_weight register-A tests, sanitizer on both, then the full forward+backward suite
# with every per-gradient mode (replaces bench/results/h100_fwd_bwd*.json).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight_rs or grouped_rows or adjoint or grad_weight_deterministic" > $R/pytest_new.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_new.txt | tail -6)
timeout 25 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_rs.py > $R/san_bw.txt 2>&1; echo "san bw exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_bw.txt
SAN_CASES=grouped_rows,grouped_rows_x4 timeout 25 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
timeout 330 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^(kernelbench_(64|74|79)|single_utterance_x8) .*(fp32_fwd_bwd|bwd_input)" $R/bench_bwd.txt | cut -c1-80
