#!/usr/bin/env bash
# Run 170 (session 17): the depthwise forward v5 (window reads at immediate offsets: strides 1 and 2 constant, tap
# pointers per lane; the bias-only lanes' branch per channel; the row-end test only on the last warp's tile) and the
# new depthwise grad_input kernel: tests, compute-sanitizer, the depthwise shapes forward and grad_input against
# cuDNN, the grad_input A/B against the direct kernel it replaces, Nsight Compute of the bf16 forward.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=100 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "depthwise" > $R/pytest_dw.txt 2>&1; echo "pytest dw exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_dw.txt | tail -8)
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 dev/python/san_depthwise.py > $R/san_dw.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_dw.txt | tail -3
timeout 60 python3 -m convt1d.bench --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,fp16,bf16 --budget-ms 100 --out $R/bench_dw.json > $R/bench_dw.txt 2>&1; echo "bench dw exit $?"; grep -E "^(depthwise|antialias|copy)" $R/bench_dw.txt | cut -c1-120
timeout 90 python3 -m convt1d.bench --backward --shapes depthwise_s2,antialias_up2_depthwise --modes fp32_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,bf16_bwd_input --budget-ms 100 --out $R/bench_dw_bwd.json > $R/bench_dw_bwd.txt 2>&1; echo "bench dw bwd exit $?"; grep -E "^(depthwise|antialias)" $R/bench_dw_bwd.txt | cut -c1-120
timeout 80 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,bf16 --budget-ms 100 \
  --variants "shipped,direct=CONVT1D_BWD_INPUT:direct" --out $R/ab_dw_bi.json > $R/ab_dw_bi.txt 2>&1; echo "ab exit $?"; cut -c1-250 $R/ab_dw_bi.txt | tail -4
timeout 60 ncu --profile-from-start off -k regex:"depthwise" --set full --import-source no -f -o $R/ncu_dw_bf16 python3 dev/python/profile_case.py depthwise_s2 fwd bf16 > $R/ncu_bf16.log 2>&1; echo "ncu exit $?"
ncu -i $R/ncu_dw_bf16.ncu-rep --page details > $R/ncu_dw_bf16.txt 2>&1; rm -f $R/ncu_dw_bf16.ncu-rep
grep -E "Duration|DRAM Throughput|Issue Slots|Executed Instructions  |Registers Per|Achieved Occupancy|Theoretical Occ" $R/ncu_dw_bf16.txt | head -8
