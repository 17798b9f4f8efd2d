#!/usr/bin/env bash
# Run 424 (session 46): library 424 (HEAD: tile order in groups of row tiles by default where a forward's packed weights
# exceed half of L2; run 423 measured the switch). Tests: the tile-order tests (the rule included), the register-A
# forward tests on the strided layers, test_cuda.py + test_autograd.py. Then codec_dec_s8 in every mode, the rule / row
# tiles fastest (CONVT1D_WGMMA_RS_RGROUP=0), rotated in one process; then the forward record.
# Before the call, on the host (~5 min): bash dev/probes/build_probe.sh fin
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_fin.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py \
  -k "test_wgmma_rs_tile_order or (test_wgmma_forward and (codec or upsample or s16) and (rs or heuristic))" > $R/tests_wgmma.txt 2>&1
 echo "wgmma tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -5 | cut -c1-250; tail -1 $R/tests_wgmma.txt)
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -5 | cut -c1-250; tail -1 $R/tests_cuda.txt)
timeout 80 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind fwd --shapes codec_dec_s8 \
  --modes fp32,fp32_strict,fp16,bf16 --variants "shipped,rowfast=CONVT1D_WGMMA_RS_RGROUP:0" --out $R/s8_rule.json > $R/s8_rule.txt 2>&1
echo "s8 rule exit $? ($SECONDS s)"; grep -E "cudnn" $R/s8_rule.txt | sed 's/ *[0-9]* TF\/s//g' | cut -c1-300
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-90
