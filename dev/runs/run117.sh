#!/usr/bin/env bash
# Run 117 (session 13), two calls: `run117.sh u2` with the shipped build, `run117.sh u4` with a build whose fused
# grad_weight k-step loop is unrolled 4 deep in 16-bit (2 shipped): KernelBench 79 grad_weight in three modes, twice.
# The u2 call also lists the kernels and their times of codec_dec_s8 and single_utterance_x8 gradients in fp16 vs bf16
# (run 112: fp16 fwd+bwd of codec_dec_s8 0.93x cuDNN while bf16 was 1.04x, single_utterance_x8 the other way round).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for rep in 1 2; do
  timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_79 --modes fp32,fp16,bf16 --variants $1=CONVT1D_BWD_WEIGHT_FUSED:1 --out $R/ab_$1_$rep.json 2>&1 | tail -3
done
[ "$1" = u2 ] || exit 0
for s in codec_dec_s8 single_utterance_x8; do for k in bwd_input bwd_weight fwd; do for m in fp16 bf16; do
  timeout 30 python3 dev/python/profile_case.py $s $k $m times 2>&1 | tee -a $R/times.txt | awk '{s+=$4} END {print "'$s' '$k' '$m' total", s, "ms"}'
done; done; done
