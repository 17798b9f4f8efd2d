#!/usr/bin/env bash
# Run 64: bwd_weight_rs staging, A/B in one process: the bulk chunks' barrier bookkeeping per producer
# thread (128 arrivals a stage, run 63) or per warp (4 arrivals + expect_tx), and one or two 128-byte
# chunks of positions per stage (longer row copies). Tests with both chunk settings, then an ncu profile of
# the default on KernelBench 64 TF32 (SASS stall summary).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for cps in 1 2; do
(cd /tmp && CONVT1D_WGMMA_BW_RS_CPS=$cps timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "stride1" 2>&1 | grep -E "passed|failed|Error|assert|^E " | tail -8) | tee $R/pytest_bw_cps$cps.txt
done
timeout 250 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_64,kernelbench_74 --modes fp32,bf16 \
  --variants thr1=CONVT1D_WGMMA_BW_RS_ARRIVE:thread,warp1=CONVT1D_WGMMA_BW_RS_CPS:1,thr2=CONVT1D_WGMMA_BW_RS_ARRIVE:thread+CONVT1D_WGMMA_BW_RS_CPS:2,warp2=CONVT1D_WGMMA_BW_RS_CPS:2 \
  --out $R/ab_bw_rs_staging.json 2>&1 | tail -6
timeout 120 ncu --profile-from-start off -k regex:"bwd_weight_rs" --set full -f -o $R/ncu_bw python3 dev/python/profile_case.py kernelbench_64 bwd_weight fp32 > $R/ncu.log 2>&1; echo "ncu exit $?"
ncu -i $R/ncu_bw.ncu-rep --page details > $R/ncu_bw_kb64_fp32.txt 2>&1
ncu -i $R/ncu_bw.ncu-rep --page source --csv --print-source sass > $R/sass_bw_kb64_fp32.csv 2>&1
rm -f $R/ncu_bw.ncu-rep; gzip $R/sass_bw_kb64_fp32.csv
grep -E "Duration|DRAM Throughput|Issue Slots|Executed Instructions  |L2 Hit|Mem Busy|Max Bandwidth|Registers Per" $R/ncu_bw_kb64_fp32.txt | head -12
python3 dev/python/sass_summary.py $R/sass_bw_kb64_fp32.csv.gz 2>&1 | head -45
