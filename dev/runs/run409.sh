#!/usr/bin/env bash
# Run 409 (session 41, H200): library 409 = 407 + the record edge kernel (fwd_edge_rec_kernel: one 16-byte load of a
# (ci, co)'s tap record serves a block's 4 columns; run 408 put Session 15's kernel at 61% L1/TEX throughput, its
# loads touching 32 sectors each, once per column). Tests (every edge test, both kernels; memcheck), then rotated in one
# process, 3 rounds: shipped / the general kernel (CONVT1D_WGMMA_RS_EDGE_REC=0, library 407's behaviour); kernel times.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_409.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge" > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests.txt | head -8 | cut -c1-300; tail -1 $R/tests.txt)
timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_edge.py > $R/san_edge.txt 2>&1; echo "san edge exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_edge.txt | head -3
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 25 --order rotate --rounds 3 --shapes codec_dec_s8,hifigan_up1,upsample_x8_bias \
  --modes fp32,fp32_strict,fp16,bf16 --variants shipped,general=CONVT1D_WGMMA_RS_EDGE_REC:0 --out $R/edge.json > $R/edge.txt 2>&1; echo "edge ab exit $? ($SECONDS s)"
grep -E "^(hifi|upsa|codec)" $R/edge.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
for s in codec_dec_s8 hifigan_up1; do for m in fp16 fp32; do
  for v in "X=1" "CONVT1D_WGMMA_RS_EDGE_REC=0" "CONVT1D_WGMMA_RS_EDGE_BESIDE=0" "CONVT1D_WGMMA_RS_EDGE_REC=0 CONVT1D_WGMMA_RS_EDGE_BESIDE=0"; do
    echo "== $s $m $v"; env $v timeout 30 python3 dev/python/profile_case.py $s fwd $m times 2>&1 | grep -E " ms " | cut -c1-150
  done; done; done > $R/kernels.txt; echo "kernels exit $? ($SECONDS s)"
grep -E "^==|rs_kernel|edge_" $R/kernels.txt | sed 's/void (anonymous namespace):://; s/(CUtens.*//; s/((anon.*//; s/EdgeArgs.*//' | cut -c1-120
