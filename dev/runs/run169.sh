#!/usr/bin/env bash
# Run 169 (session 17): the depthwise forward v4 (windows staged as stored by 16-byte cp.async pieces, double
# buffered; 4096-output tiles): tests, compute-sanitizer, the depthwise shapes against cuDNN, Nsight Compute of
# depthwise_s2 bf16, the SASS opcode counts of its kernel.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=100 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "depthwise" > $R/pytest_dw.txt 2>&1; echo "pytest dw exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_dw.txt | tail -8)
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 python3 dev/python/san_depthwise.py > $R/san_dw.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY|san ok" $R/san_dw.txt | tail -2
timeout 60 python3 -m convt1d.bench --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,fp16,bf16 --budget-ms 100 --out $R/bench_dw.json > $R/bench_dw.txt 2>&1; echo "bench dw exit $?"; grep -E "^(depthwise|antialias|copy)" $R/bench_dw.txt | cut -c1-120
timeout 60 ncu --profile-from-start off -k regex:"depthwise" --set full --import-source no -f -o $R/ncu_dw_bf16 python3 dev/python/profile_case.py depthwise_s2 fwd bf16 > $R/ncu_bf16.log 2>&1; echo "ncu exit $?"
ncu -i $R/ncu_dw_bf16.ncu-rep --page details > $R/ncu_dw_bf16.txt 2>&1; rm -f $R/ncu_dw_bf16.ncu-rep
grep -E "Duration|DRAM Throughput|Issue Slots|Executed Instructions  |Registers Per|Achieved Occupancy|Theoretical Occ" $R/ncu_dw_bf16.txt | head -8
cuobjdump -sass -arch sm_90a .carry/libconvt1d.so 2>/dev/null | awk '/Function : .*depthwise_fwd_kernelI13__nv_bfloat16Li2ELb1E/{p=1;next} /Function : /{p=0} p' > $R/sass_dw_bf16.txt
awk '{for(i=1;i<=NF;i++) if ($i ~ /^[A-Z][A-Z0-9_.]+$/ && $(i-1) ~ /\*\/$/) {split($i,a,"."); print a[1]; break}}' $R/sass_dw_bf16.txt | sort | uniq -c | sort -rn | head -25
wc -l $R/sass_dw_bf16.txt
