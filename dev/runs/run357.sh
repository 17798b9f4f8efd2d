#!/usr/bin/env bash
# Run 357 (session 33): library .carry/libconvt1d_357.so.xz: run 356's (per-stage ordering barriers, phase-merged interior
# tiles stored without checks) plus stride-1 row tiles wholly below C_out stored without a test or a bias branch per row
# (WgArgs::pfast too). 1) The fast-epilogue bitwise test (stride-1 layers added, the C_in 40 / 48 layers replaced), the
# register-A forward picks, spare rows, pairs, grouped rows, one-phase, edge, ldmatrix, ordered ping-pong, the stride-1
# grad_input (adjoint). 2) Rotated ABBA PFAST on / off on the stride-1 layers. 3) The forward suite (committed records).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_357.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
cd tests/python
timeout 230 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "fast_epilogue or test_wgmma_forward or rs_taken or spare or ordered_pingpong or adjoint or rs_pairs or rs_forward_grouped or rs_grouped_rows or one_phase or rs_edge or ldmatrix or programmatic" \
  > $R/tests_rs.txt 2>&1; echo "rs tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -8 | cut -c1-250; tail -1 $R/tests_rs.txt
cd ../..
timeout 70 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes kernelbench_64,kernelbench_74 --modes fp32,fp16,bf16 \
  --variants shipped,nofast=CONVT1D_WGMMA_RS_PFAST:0 --out $R/ab_pfast_s1.json > $R/ab_pfast_s1.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^kern" $R/ab_pfast_s1.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|hifigan_up2|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-100
