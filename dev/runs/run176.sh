#!/usr/bin/env bash
# Run 176 (session 18): rows TMA cannot address one by one read as groups of rows (WgArgs::xg, fwd_wgmma.cu;
# CONVT1D_WGMMA_RS_GROUPS=0: the bulk copies before): its tests, the adjoint / grad_input tests, the sanitizer on
# the register-A forward (odd_rows: grad_y rows in groups of 4 / 8), the A/B on the stride-1 grad_inputs, the
# forward+backward rows of KernelBench; then the session-17 refactors never run on a GPU (depthwise and
# grad_bias tests, depthwise sanitizer).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grouped_rows or grad_input_adjoint or rs_grad_input_taken" > $R/pytest_new.txt 2>&1; echo "pytest new exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_new.txt | tail -12)
timeout 120 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64,kernelbench_74 --modes fp32,fp32_strict,fp16,bf16 --budget-ms 60 \
  --variants "shipped,bulk=CONVT1D_WGMMA_RS_GROUPS:0" --out $R/ab_groups.json > $R/ab_groups.txt 2>&1; echo "ab groups exit $? ($SECONDS s)"; cut -c1-200 $R/ab_groups.txt | tail -12
SAN_TILES=auto,bulk,64x1 timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd_rs.txt 2>&1; echo "san rs exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|worst|odd_rows" $R/san_fwd_rs.txt | tail -6
timeout 100 python3 -m convt1d.bench --backward --shapes kernelbench_64,kernelbench_74,kernelbench_79 --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,bf16_bwd_input --budget-ms 60 --out $R/bench_kb_bwd.json > $R/bench_kb_bwd.txt 2>&1; echo "bench kb bwd exit $? ($SECONDS s)"; grep -E "^kernelbench" $R/bench_kb_bwd.txt | cut -c1-90
left=$((560 - SECONDS)); echo "rest budget $left s"
(cd /tmp && timeout $((left / 2)) python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "depthwise or grad_bias_rows" > $R/pytest_dw.txt 2>&1; echo "pytest dw exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_dw.txt | tail -6)
left=$((570 - SECONDS)); timeout $left compute-sanitizer --tool memcheck python3 dev/python/san_depthwise.py > $R/san_dw.txt 2>&1; echo "san dw exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_dw.txt | tail -2
