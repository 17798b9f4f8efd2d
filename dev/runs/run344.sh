#!/usr/bin/env bash
# Run 344 (session 32): the register-A forward as a programmatic dependent launch after its weight pack
# (rs_launch: pdl_wait in its producer, pdl_trigger at the end of wgmma_pack_kernel; the edge kernel's fork moved
# before the pack; CONVT1D_WGMMA_PDL=0 the plain launch), and ordered ping-pong as an experiment
# (CONVT1D_WGMMA_RS_PPO=1: ping-pong where nchunk + 1 stages do not fit, the warpgroups' tiles ordered by named
# barriers; =2 with two stages, for the tests). Library: .carry/libconvt1d_344.so.xz (fwd_wgmma.cu rebuilt).
# 1) Tests: the new same-bits test, the register-A forward with ordered ping-pong forced (rsppo) and the usual
# register-A picks, grad_input adjoint, the edge tests, test_weight_cache.py. 2) Kernel+pack ABBA (ab_wgmma.py,
# the plain call: pack + forward): PDL off / on on the vocoder rows; PPO on KernelBench 64 and the 128x2 layers.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_344.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
cd tests/python
timeout 200 python3 -m pytest -q -x -p no:cacheprovider test_cuda_wgmma.py -k "programmatic or rsppo or edge" \
  > $R/tests_new.txt 2>&1; echo "new tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests_new.txt | head -6 | cut -c1-300; tail -1 $R/tests_new.txt
timeout 200 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "(test_wgmma_forward and (rs or heuristic)) or rs_taken or adjoint" \
  test_weight_cache.py > $R/tests_rs.txt 2>&1; echo "rs tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -6 | cut -c1-300; tail -1 $R/tests_rs.txt
cd ../..
timeout 170 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_64,hifigan_up2,hifigan_up3 --modes fp32,fp16 \
  --variants shipped,ppo=CONVT1D_WGMMA_RS_PPO:1+CONVT1D_WGMMA_RS_PP:1 --out $R/ab_ppo.json > $R/ab_ppo.txt 2>&1; echo "ab ppo exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/ab_ppo.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes hifigan_up1,codec_dec_s5,codec_dec_s8,upsample_x8_bias --modes fp32,bf16 \
  --variants shipped,nopdl=CONVT1D_WGMMA_PDL:0 --out $R/ab_pdl.json > $R/ab_pdl.txt 2>&1; echo "ab pdl exit $? ($SECONDS s)"; grep -E "^(hifi|codec|upsa)" $R/ab_pdl.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
