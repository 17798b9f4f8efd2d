#!/usr/bin/env bash
# Run 354 (session 33): ordered ping-pong with one named barrier per stage (WgArgs::ppo_k = the ring's stages, at most
# 6): chunk k < K of a warpgroup's next tile waits only for the other warpgroup's chunk nchunk - K + k, whatever order TMA
# completes fills in (library .carry/libconvt1d_354.so.xz; CONVT1D_WGMMA_RS_PPO_K=1 is Session 32's after-the-last-chunk
# form). 1) dev/python/ppo_probe.py at full size, each variant in its own process, bits against no ordered ping-pong.
# 2) The ordered-ping-pong tests and the rsppo picks. 3) Rotated ABBA: per-stage / K=1 / none. 4) The forward suite.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_354.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
V=CONVT1D_WGMMA_RS_PPO; K=CONVT1D_WGMMA_RS_PPO_K; P=CONVT1D_WGMMA_RS_PP:1+CONVT1D_WGMMA_RS_WRES:0
timeout 150 python3 dev/python/ppo_probe.py --sizes 64x65536,8x16384 --modes fp32 \
  --variants base=$V:0,s3=$V:1,s3k1=$V:1+$K:1,s2=$V:2,s2k1=$V:2+$K:1 2>&1 | tee $R/probe_fp32.txt; echo "probe fp32 ($SECONDS s)"
timeout 60 python3 dev/python/ppo_probe.py --sizes 8x16384 --modes fp16 \
  --variants base=$V:0+CONVT1D_WGMMA_RS_WRES:0,s2=$V:2+$P,s2k1=$V:2+$K:1+$P 2>&1 | tee $R/probe_fp16.txt; echo "probe fp16 ($SECONDS s)"
cd tests/python
timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "ordered_pingpong or rsppo" > $R/tests_ppo.txt 2>&1; echo "ppo tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_ppo.txt | head -8 | cut -c1-250; tail -1 $R/tests_ppo.txt
cd ../..
timeout 90 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_64,hifigan_up3 --modes fp32 \
  --variants shipped,k1=$K:1,noppo=$V:0 --out $R/ab_ppo_k.json > $R/ab_ppo_k.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/ab_ppo_k.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|hifigan_up3|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-100
