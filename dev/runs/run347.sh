#!/usr/bin/env bash
# Run 347 (session 32): the committed forward results with the final library (.carry/libconvt1d_347.so.xz: ordered
# ping-pong by default in TF32, the register-A forward after its pack as a programmatic launch): the forward suite, plain and
# with the weight cache; KernelBench 64 TF32 with two stages (CONVT1D_WGMMA_RS_PPO=2) against three and against none.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_347.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
timeout 150 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|hifigan_up3|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-100
timeout 130 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt
timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_64 --modes fp32 \
  --variants shipped,ppo2=CONVT1D_WGMMA_RS_PPO:2,noppo=CONVT1D_WGMMA_RS_PPO:0 --out $R/ab_ppo_stages.json > $R/ab_ppo_stages.txt 2>&1; echo "ab stages exit $? ($SECONDS s)"; grep -E "^kern" $R/ab_ppo_stages.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
