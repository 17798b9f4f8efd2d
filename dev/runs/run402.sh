#!/usr/bin/env bash
# Run 402 (session 40, H200): dev/cuda/wa_probe.cu, the stride-1 TF32 forward with the weights as wgmma A and x
# transposed in shared memory as B (several one-warpgroup blocks per SM), checked against float64 and timed against
# the library (400) and cuDNN on KernelBench 74 in one process (dev/python/wa_probe.py). Calls a-n
# (dev/cuda/results/run402_h200/README.md) ran it at their commits. Knobs: ROUNDS (rotated rounds, 3), PT (the probe's
# time limit, 200 s), NCU=<variant> (Nsight Compute of that variant), SWAP=1 (rerun with LBO / SBO exchanged on failure).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
nvcc -O3 -std=c++17 -shared -Xcompiler -fPIC -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -o /tmp/wa_probe.so dev/cuda/wa_probe.cu > $R/nvcc.txt 2>&1; echo "nvcc exit $? ($SECONDS s)"
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_400.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
timeout ${PT:-200} python3 dev/python/wa_probe.py --lib /tmp/wa_probe.so --rounds ${ROUNDS:-3} --out $R/wa.json > $R/wa.txt 2>&1; rc=$?
echo "probe exit $rc ($SECONDS s)"; grep -E "ok': False|kb74|failed|Error|error" $R/wa.txt | cut -c1-250 | head -30
if [ $rc -ne 0 ] && [ -n "${SWAP:-}" ]; then
  timeout 150 python3 dev/python/wa_probe.py --lib /tmp/wa_probe.so --rounds 1 --swap 1 --out $R/wa_swap.json > $R/wa_swap.txt 2>&1
  echo "probe swap exit $? ($SECONDS s)"; grep -E "ok': False|kb74|failed|Error|error" $R/wa_swap.txt | cut -c1-250 | head -30
fi
if [ -n "${NCU:-}" ]; then  # Nsight Compute of one variant (the second of its three launches)
  timeout 150 ncu -k regex:wa_fwd -s 1 -c 1 --set full --import-source no -f -o /tmp/ncu_wa python3 dev/python/wa_probe.py --lib /tmp/wa_probe.so --only $NCU > $R/ncu.log 2>&1; echo "ncu exit $? ($SECONDS s)"
  ncu -i /tmp/ncu_wa.ncu-rep --page details > $R/ncu_details.txt 2>&1
  ncu -i /tmp/ncu_wa.ncu-rep --page source --csv --print-source sass > $R/ncu_sass.csv 2>&1; gzip $R/ncu_sass.csv
  grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Eligible Warps|No Eligible|Registers Per|Achieved Occupancy" $R/ncu_details.txt | head -12
fi
