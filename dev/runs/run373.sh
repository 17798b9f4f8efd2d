#!/usr/bin/env bash
# Run 373 (session 36): half rows for KernelBench 64 TF32. Run 372 put 29% of its stall samples on the consumers'
# full-barrier wait and 63% of the producer's on the empty one: with three 65 KB stages and both warpgroups each on a
# stage, one stage is in flight. Library 373 (this commit's source): fwd_wgmma_rs_kernel's KR = 64 instantiation
# (chunks of 16 channels, six 33 KB stages), on with CONVT1D_WGMMA_RS_HALF=1; every other kernel's SASS is Session
# 33's (checked before the run). 1) The half-row tests and the register-A kernel-taken tests. 2) Shipped against half
# rows with direct stores (six stages) and with the staged tile (two stages, Session 25's form), rotated in one
# process. 3) Nsight Compute on KernelBench 64 TF32 with half rows, as run 372.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l373 && xz -dc .carry/libconvt1d_373.so.xz > /tmp/l373/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l373 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l373/libconvt1d.so
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "half_rows or rs_kernel_args or rs_taken" > $R/tests_half.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_half.txt | head -6 | cut -c1-250; tail -1 $R/tests_half.txt)
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes kernelbench_64 --modes fp32 \
  --variants shipped,half=CONVT1D_WGMMA_RS_HALF:1+CONVT1D_WGMMA_RS_EPI:direct,halfstaged=CONVT1D_WGMMA_RS_HALF:1 \
  --out $R/ab_half.json > $R/ab_half.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/ab_half.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
CONVT1D_WGMMA_RS_HALF=1 CONVT1D_WGMMA_RS_EPI=direct timeout 200 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full \
  --clock-control none --import-source no -f -o /tmp/ncu_half python3 dev/python/profile_case.py kernelbench_64 fwd fp32 > $R/ncu_half.log 2>&1; echo "ncu exit $? ($SECONDS s)"
ncu -i /tmp/ncu_half.ncu-rep --page details > $R/details_half.txt 2>&1
ncu -i /tmp/ncu_half.ncu-rep --page source --csv --print-source sass > $R/sass_half.csv 2>&1; gzip $R/sass_half.csv
python3 dev/python/sass_summary.py $R/sass_half.csv.gz 200 > $R/sass_half.txt 2>&1
grep -E "Duration|DRAM Throughput|L2 Cache Throughput|SM Frequency|Registers Per|Executed Instructions  " $R/details_half.txt | head -8
grep -E "^stall reasons" $R/sass_half.txt
