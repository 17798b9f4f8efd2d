#!/usr/bin/env bash
# Run 163 (session 16): Nsight Compute profile of the register-A forward on KernelBench 64 bf16 as shipped now
# (resident weights, no ping-pong, position pairs): where the 16-bit forward's time goes, 3% short of 2.5x.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
timeout 200 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full --import-source no -f -o $R/ncu_kb64_bf16 python3 dev/python/profile_case.py kernelbench_64 fwd bf16 > $R/ncu.log 2>&1; echo "ncu exit $?"; tail -2 $R/ncu.log
ncu -i $R/ncu_kb64_bf16.ncu-rep --page details > $R/ncu_kb64_bf16.txt 2>&1
ncu -i $R/ncu_kb64_bf16.ncu-rep --page source --csv --print-source sass > $R/sass_kb64_bf16.csv 2>&1; gzip $R/sass_kb64_bf16.csv
rm -f $R/ncu_kb64_bf16.ncu-rep
grep -E "Duration|DRAM Throughput|Issue Slots|Executed Ipc|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|Shared Memory|Registers Per|Achieved Occupancy|Theoretical Occ|Block Limit" $R/ncu_kb64_bf16.txt | head -30
python3 dev/python/sass_summary.py $R/sass_kb64_bf16.csv.gz 2>&1 | head -45
