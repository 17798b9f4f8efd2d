#!/usr/bin/env bash
# Run 168 (session 17): the depthwise forward v3 (a run of tiles per block, the next window prefetched into
# registers, weights and bias staged once per block, fixed-phase lanes): tests, compute-sanitizer, the depthwise
# shapes against cuDNN, Nsight Compute of depthwise_s2 (fp32, bf16).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=100 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "depthwise" > $R/pytest_dw.txt 2>&1; echo "pytest dw exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_dw.txt | tail -8)
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 python3 dev/python/san_depthwise.py > $R/san_dw.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY|san ok" $R/san_dw.txt | tail -2
timeout 60 python3 -m convt1d.bench --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,fp16,bf16 --budget-ms 100 --out $R/bench_dw.json > $R/bench_dw.txt 2>&1; echo "bench dw exit $?"; grep -E "^(depthwise|antialias|copy)" $R/bench_dw.txt | cut -c1-120
for m in fp32 bf16; do
timeout 60 ncu --profile-from-start off -k regex:"depthwise" --set full --import-source no -f -o $R/ncu_dw_$m python3 dev/python/profile_case.py depthwise_s2 fwd $m > $R/ncu_$m.log 2>&1; echo "ncu $m exit $?"
ncu -i $R/ncu_dw_$m.ncu-rep --page details > $R/ncu_dw_$m.txt 2>&1; rm -f $R/ncu_dw_$m.ncu-rep
grep -E "Duration|DRAM Throughput|Issue Slots|Executed Ipc A|Registers Per|Achieved Occupancy|Theoretical Occ|Block Limit Reg|Block Limit Sh" $R/ncu_dw_$m.txt | head -12
done
