#!/usr/bin/env bash
# Run 346 (session 32): ordered ping-pong by default (rs_launch; CONVT1D_WGMMA_RS_PPO=0 the old rule) and for the
# TF32 phase-merged rows with short reductions (rs_pingpong fwd_short). Library .carry/libconvt1d_346.so.xz
# (fwd_wgmma.cu rebuilt; host code only against run 344's). 1) Tests: the register-A forward picks, the stride-1
# grad_input (the adjoint forward), the programmatic-launch tests, test_autograd.py. 2) Rotated ABBA, shipped vs
# PPO=0: forward and the stride-1 grad_input. (The forward suite: run 347.)
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_346.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
cd tests/python
timeout 170 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "(test_wgmma_forward and (rs or heuristic)) or rs_taken or adjoint or programmatic" \
  > $R/tests_rs.txt 2>&1; echo "rs tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-300; tail -1 $R/tests_rs.txt
timeout 100 python3 -m pytest -q -p no:cacheprovider test_autograd.py > $R/tests_autograd.txt 2>&1; echo "autograd exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_autograd.txt | head -4 | cut -c1-300; tail -1 $R/tests_autograd.txt
cd ../..
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_64,kernelbench_74,hifigan_up3 --modes fp32,fp32_strict \
  --variants shipped,noppo=CONVT1D_WGMMA_RS_PPO:0 --out $R/ab_ppo.json > $R/ab_ppo.txt 2>&1; echo "ab fwd exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/ab_ppo.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_input --budget-ms 60 --order rotate --shapes kernelbench_64 --modes fp32,fp32_strict \
  --variants shipped,noppo=CONVT1D_WGMMA_RS_PPO:0 --out $R/ab_ppo_bi.json > $R/ab_ppo_bi.txt 2>&1; echo "ab grad_input exit $? ($SECONDS s)"; grep -E "^kern" $R/ab_ppo_bi.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
