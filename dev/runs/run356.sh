#!/usr/bin/env bash
# Run 356 (session 33): the phase-merged rows' direct epilogue without checks on interior tiles (WgArgs::pfast; run 355:
# upsample_x8 fp16's epilogue was 43% of the executed instructions, ~30 per store), library .carry/libconvt1d_356.so.xz
# (also run 354's per-stage ordering barriers). 1) The new bitwise test, the register-A forward picks and spare rows,
# the ordered ping-pong tests. 2) Rotated ABBA, PFAST on / off, on the strided layers. 3) The forward suite.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_356.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
cd tests/python
timeout 220 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "phase_rows_fast or spare or ordered_pingpong or (test_wgmma_forward and (rs or heuristic)) or rs_taken" \
  > $R/tests_rs.txt 2>&1; echo "rs tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_rs.txt | head -8 | cut -c1-250; tail -1 $R/tests_rs.txt
cd ../..
timeout 130 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s8,codec_dec_s5 --modes fp32,fp16,bf16 \
  --variants shipped,nofast=CONVT1D_WGMMA_RS_PFAST:0 --out $R/ab_pfast.json > $R/ab_pfast.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(upsa|hifi|codec)" $R/ab_pfast.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|hifigan_up2|hifigan_up3|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-100
