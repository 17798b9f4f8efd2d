#!/usr/bin/env bash
# Run 341 (session 31): the SS GEMM as a programmatic dependent launch after its pre-pass / input transpose
# (launch_big_smem_pdl, pdl_wait / pdl_trigger; CONVT1D_WGMMA_PDL=0 the plain launch). The library with it
# (.carry/libconvt1d_pdl.so.xz, fwd_wgmma.cu rebuilt: only the SS kernels, the pre-pass and the transposes differ in SASS).
# 1) Tests: the new same-bits test (eager and CUDA graph, plain and cached), the pack tests, the SS forward picks,
# test_weight_cache.py, test_cuda.py's graph and stream tests. 2) single_utterance_x8 eager / graph times with
# CONVT1D_WGMMA_PDL=0 / 1 in alternating processes. 3) Kernel-level ABBA on the SS-path rows.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/pdl && xz -dc .carry/libconvt1d_pdl.so.xz > /tmp/pdl/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/pdl > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/pdl/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
cd tests/python
timeout 300 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "programmatic or rs_pack or (test_wgmma_forward and (forced or br64 or br128x2 or br256 or heuristic))" \
  test_weight_cache.py > $R/tests_wgmma.txt 2>&1; echo "wgmma tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -6 | cut -c1-300; tail -1 $R/tests_wgmma.txt
timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda.py -k "graph or stream or capture" > $R/tests_cuda.txt 2>&1; echo "cuda tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -4 | cut -c1-300; tail -1 $R/tests_cuda.txt
cd ../..
for i in 1 2; do for v in 0 1; do
  echo "== pdl=$v ($i)"; CONVT1D_WGMMA_PDL=$v timeout 90 python3 dev/python/latency_probe.py --modes fp16,fp32 --no-kernels --order convt1d,convt1d_cached --out $R/lat_p${v}_$i.json 2>&1 | grep eager
done; done | tee $R/latency.txt
timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes single_utterance_x8,codec_dec_s8 --modes fp32,fp32_strict,fp16 \
  --variants shipped,nopdl=CONVT1D_WGMMA_PDL:0 --out $R/ab_pdl.json > $R/ab_pdl.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(single|codec)" $R/ab_pdl.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
