#!/usr/bin/env bash
# Run 9 (session 3 of 2026-11-21): raw-weight tiny path and stride-1 adjoint grad_input validation, A/B
# timings that decide two heuristics. Needs CONVT1D_LIBRARY and HARNESS_BIN (carried builds); writes $OUT.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader
# 1. every product tile configuration with weights built in-kernel (raw) vs float64
CONVT1D_TC_WRAW=1 timeout 200 "$HARNESS_BIN" check -1,0,1,2,3,4,6,8,9,10,12,34 > $R/harness_wraw.txt 2>&1; echo "harness wraw exit $?"
grep -E "FAIL|harness:" $R/harness_wraw.txt | tail -5
# 2. CUDA self-test (tiny forwards now take the raw path; stride-1 grad_input the adjoint forward)
LIB=$CONVT1D_LIBRARY FORCE_LIB=1 timeout 200 bash tests/cuda/build_and_run.sh > $R/cudatest.txt 2>&1; echo "cudatest exit $?"; tail -2 $R/cudatest.txt
# 3. latency shapes, forward: raw weights (default now) vs pack kernel
LAT=kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8
python3 -m convt1d.bench --shapes $LAT --budget-ms 150 --out $R/lat_wraw.json 2>&1 | grep -E "^(kern|single)"
CONVT1D_TC_WRAW=0 python3 -m convt1d.bench --shapes $LAT --budget-ms 150 --out $R/lat_pack.json 2>&1 | grep -E "^(kern|single)"
python3 dev/python/host_overhead_cuda.py --out $R/host.json
# 4. grad_input at stride 2: tc (default) vs phase planes, per dtype
S2=kernelbench_79,hifigan_up3,hifigan_up4,grouped_g4
M=fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input
python3 -m convt1d.bench --backward --shapes $S2 --modes $M --budget-ms 150 --out $R/s2_tc.json 2>&1 | grep -E "_bwd_input"
CONVT1D_BWD_INPUT=planes python3 -m convt1d.bench --backward --shapes $S2 --modes $M --budget-ms 150 --out $R/s2_planes.json 2>&1 | grep -E "_bwd_input"
