#!/usr/bin/env bash
# Run 358 (session 33): the final library .carry/libconvt1d_356.so.xz (per-stage ordering barriers; phase-merged interior
# tiles stored without checks; run 357's stride-1 form reverted, so the source is run 356's). 1) The fast-epilogue test
# with its layers fixed. 2) The committed records: forward, forward with the weight cache, the
# KernelBench evaluation (the forward+backward records stay run 351's: no room for their full run here).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_356.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
cd tests/python
timeout 60 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "fast_epilogue" > $R/tests_fast.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_fast.txt | head -8 | cut -c1-250; tail -1 $R/tests_fast.txt
cd ../..
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|hifigan_up2|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd.txt | cut -c1-100
timeout 125 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-220
