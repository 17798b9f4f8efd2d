#!/usr/bin/env bash
# Run 350 (session 32): the final library (.carry/libconvt1d_350.so.xz): ordered ping-pong in TF32 with the next tile let
# in after the last chunk's wait (WgArgs::ppo_at, the only order that holds whatever order TMA completes fills in),
# the register-A forward after its pack as a programmatic launch. 1) Tests: the many-tiles ordered ping-pong test,
# the rsppo picks, the register-A forward picks, the stride-1 grad_input, the programmatic-launch tests. 2) Rotated
# ABBA, shipped vs CONVT1D_WGMMA_RS_PPO=0. 3) The committed forward results, plain and with the weight cache.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_350.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
cd tests/python
timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "ordered_pingpong or (test_wgmma_forward and (rs or heuristic)) or rs_taken or adjoint or programmatic" \
  > $R/tests_rs.txt 2>&1; echo "rs tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-300; tail -1 $R/tests_rs.txt
cd ../..
timeout 70 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_64,hifigan_up3 --modes fp32 \
  --variants shipped,noppo=CONVT1D_WGMMA_RS_PPO:0 --out $R/ab_ppo.json > $R/ab_ppo.txt 2>&1; echo "ab fwd exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/ab_ppo.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|hifigan_up3|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-100
timeout 130 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt
