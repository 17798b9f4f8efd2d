#!/usr/bin/env bash
# Run 408 (session 41, H200): where Session 15's edge kernel spends its time (library 407), for the next attempt at an
# edge kernel that fits in the forward's last round (runs 405-406: it runs 91 us there, 43 alone; the 4-column rebuilds
# lost). Nsight Compute, full set, of fwd_edge_kernel on codec_dec_s8 fp16 and fp32, after the forward on one stream.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_407.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so CONVT1D_WGMMA_RS_EDGE_BESIDE=0
for m in fp16 fp32; do
  timeout 150 ncu --profile-from-start off -k regex:fwd_edge_kernel --set full --import-source no -f -o /tmp/ncu_$m python3 dev/python/profile_case.py codec_dec_s8 fwd $m > $R/ncu_$m.log 2>&1; echo "ncu $m exit $? ($SECONDS s)"
  ncu -i /tmp/ncu_$m.ncu-rep --page details > $R/details_$m.txt 2>&1
  ncu -i /tmp/ncu_$m.ncu-rep --page source --csv --print-source sass > $R/sass_$m.csv 2>&1; gzip $R/sass_$m.csv
  grep -E "Duration|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Compute \(SM\)|Issue Slots Busy|No Eligible|Achieved Occupancy|Registers Per|L1/TEX Cache Throughput|L2 Cache Throughput|Mem Busy|Max Bandwidth|Mem Pipes Busy" $R/details_$m.txt | head -24
  grep -iE "stall|warp cycles per issued" $R/details_$m.txt | head -8 | cut -c1-200
done
