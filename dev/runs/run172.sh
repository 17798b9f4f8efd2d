#!/usr/bin/env bash
# Run 172 (session 17, after the cut-off try whose runs 167-171 left no record): the cut-off try's depthwise forward
# v5, depthwise grad_input and grad_weight kernels and position pairs on every 16-bit stride-1 layer, plus this
# session's review fixes (device shared-memory limit, CONVT1D_DW_TPB, CONVT1D_DW, new test layers). C++ op rebuilt
# for torch 2.11; depthwise tests and compute-sanitizer; the depthwise kernels against the paths without them
# (CONVT1D_DW=0, ABBA); the depthwise shapes and KernelBench 74 against cuDNN; the wgmma pairs / taken / adjoint tests.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"; tail -1 $R/build_op.txt
cp .carry/libconvt1d_torch.so .carry/libconvt1d_torch.torch_version $R/
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
t0=$SECONDS
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=100 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "depthwise" > $R/pytest_dw.txt 2>&1; echo "pytest dw exit $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|^FAILED" $R/pytest_dw.txt | tail -12)
t0=$SECONDS
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 dev/python/san_depthwise.py > $R/san_dw.txt 2>&1; echo "sanitizer exit $? ($((SECONDS-t0)) s)"; grep -E "ERROR SUMMARY|san ok|Error|assert|^layer" $R/san_dw.txt | tail -3
t0=$SECONDS
timeout 45 python3 dev/python/ab_wgmma.py --kind fwd --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,bf16 --budget-ms 50 \
  --variants "shipped,nodw=CONVT1D_DW:0" --out $R/ab_dw_fwd.json > $R/ab_dw_fwd.txt 2>&1; echo "ab fwd exit $? ($((SECONDS-t0)) s)"; cut -c1-250 $R/ab_dw_fwd.txt | tail -4
timeout 45 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,bf16 --budget-ms 50 \
  --variants "shipped,nodw=CONVT1D_DW:0" --out $R/ab_dw_bi.json > $R/ab_dw_bi.txt 2>&1; echo "ab bi exit $?"; cut -c1-250 $R/ab_dw_bi.txt | tail -4
timeout 45 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,bf16 --budget-ms 50 \
  --variants "shipped,nodw=CONVT1D_DW:0" --out $R/ab_dw_bw.json > $R/ab_dw_bw.txt 2>&1; echo "ab bw exit $?"; cut -c1-250 $R/ab_dw_bw.txt | tail -4
t0=$SECONDS
timeout 60 python3 -m convt1d.bench --shapes depthwise_s2,antialias_up2_depthwise,kernelbench_74 --modes fp32,fp32_strict,fp16,bf16 --budget-ms 80 --out $R/bench_fwd.json > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($((SECONDS-t0)) s)"; grep -E "^(depthwise|antialias|kernelbench|copy)" $R/bench_fwd.txt | cut -c1-120
t0=$SECONDS
timeout 80 python3 -m convt1d.bench --backward --shapes depthwise_s2,antialias_up2_depthwise --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($((SECONDS-t0)) s)"; grep -E "^(depthwise|antialias)" $R/bench_bwd.txt | cut -c1-120
t0=$SECONDS
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=90 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs_pairs or rs_taken or adjoint" > $R/pytest_wg.txt 2>&1; echo "pytest wg exit $? ($((SECONDS-t0)) s)"; grep -E "passed|failed|^FAILED" $R/pytest_wg.txt | tail -6)
