#!/usr/bin/env bash
# Run 433 (session 47): is codec_dec_s8 held by L2 -> SM bandwidth? Run 423's Nsight Compute counted 189M L2 sectors read
# by TEX/TMA (6.0 GB: each 128-position x 256-row tile brings 3.1 MB of weights and 0.8 MB of input) in its 1.07 ms
# TF32 kernel, 5.6 TB/s; run 428's free weights took 12% off. Speed of light and L2 throughput against peak, for
# codec_dec_s8 (TF32, bf16), hifigan_up1 TF32 (weights 8 MB, in L2) and KernelBench 64 TF32, library 427.
# Before the call, on the host: bash dev/probes/build_probe.sh cur
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lcur && xz -dc .carry/libconvt1d_cur.so.xz > /tmp/lcur/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lcur/libconvt1d.so
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_bytes.sum.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
for c in "codec_dec_s8 fp32" "codec_dec_s8 bf16" "hifigan_up1 fp32" "kernelbench_64 fp32"; do set -- $c
  timeout 60 ncu --profile-from-start off -k regex:"fwd_wgmma_rs" --metrics $M \
    python3 dev/python/profile_case.py $1 fwd $2 > $R/ncu_$1_$2.txt 2>&1
  echo "ncu $1 $2 exit $? ($SECONDS s):"; grep -E "^ +(gpu__|lts__|l1tex__|dram__|sm__)" $R/ncu_$1_$2.txt | awk '{print "   ", $1, $(NF-1), $NF}'
done
