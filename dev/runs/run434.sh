#!/usr/bin/env bash
# Run 434 (session 47): where codec_dec_s8's register-A forward waits, with library 427 (tile groups on): Nsight Compute
# full set and SASS stall samples, as run 362 did for the other stride-8 rows. Run 428's free weights took 12% off its
# TF32 time and run 433 put its L2 at 62% of peak: the question is whether the consumers wait on the stage's full
# barrier (the refill's latency). TF32 first, bf16 if the time allows. Before the call: bash dev/probes/build_probe.sh cur
set -u
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_cur.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
for c in "codec_dec_s8 fp32 s8_tf32" "codec_dec_s8 bf16 s8_bf16"; do
  set -- $c
  [ $SECONDS -gt 120 ] && break
  timeout 120 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --set full --import-source no -f -o /tmp/ncu_$3 python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$3.log 2>&1; echo "ncu $3 exit $? ($SECONDS s)"
  ncu -i /tmp/ncu_$3.ncu-rep --page details > $R/details_$3.txt 2>&1
  ncu -i /tmp/ncu_$3.ncu-rep --page source --csv --print-source sass > $R/sass_$3.csv 2>&1; gzip $R/sass_$3.csv
  python3 dev/python/sass_summary.py $R/sass_$3.csv.gz 200 > $R/sass_$3.txt 2>&1
  grep -E "Duration|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Eligible Warps|SM Frequency" $R/details_$3.txt | head -8
  head -24 $R/sass_$3.txt | cut -c1-150
  tar -C "$OUT" -czf "$OUT/results.tgz" r
done
tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"
