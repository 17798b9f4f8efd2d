#!/usr/bin/env bash
# Run 406 (session 41, H200): the edge kernel of run 405 with more parallelism (src/cuda/fwd_edge.cu: one block per 8
# channels x 4 columns x 8 samples, 16 warps, 16 weight loads in flight per warp; run 405's 16-channel, 8-warp form ran
# 85 us alone on codec_dec_s8 fp16 against 42 for session 15's kernel: latency-bound, 384 warps against 3072). Run 405 was:
# the edge kernel rebuilt (one block per 16 channels x 4 columns x 8
# samples, so each 32-byte sector of w is fetched once per block, not once per column). Run 404 showed session 15's
# kernel on codec_dec_s8 fp16 running 96 us on the SMs the forward's last round leaves idle and ending 35 us after it.
# Tests (every edge test, y's edge columns on their own scale; memcheck), then rotated in one process, 3 rounds:
# shipped / the old kernel (CONVT1D_EDGE_V1=1, a trial switch) / no edge drop; kernel times of one call each.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_406.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge" > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests.txt | head -8 | cut -c1-300; tail -1 $R/tests.txt)
timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_edge.py > $R/san_edge.txt 2>&1; echo "san edge exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_edge.txt | head -3
timeout 240 python3 dev/python/ab_wgmma.py --budget-ms 25 --order rotate --rounds 3 --shapes codec_dec_s8,codec_dec_s5,hifigan_up1 \
  --modes fp32,fp32_strict,fp16,bf16 --variants shipped,v1=CONVT1D_EDGE_V1:1 --out $R/edge.json > $R/edge.txt 2>&1; echo "edge ab exit $? ($SECONDS s)"
grep -E "^(hifi|upsa|codec)" $R/edge.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
for s in codec_dec_s8 hifigan_up1; do for m in fp16 fp32; do
  for v in "X=1" "CONVT1D_EDGE_V1=1" "CONVT1D_WGMMA_RS_EDGE_BESIDE=0" "CONVT1D_EDGE_V1=1 CONVT1D_WGMMA_RS_EDGE_BESIDE=0"; do
    echo "== $s $m $v"; env $v timeout 30 python3 dev/python/profile_case.py $s fwd $m times 2>&1 | grep -E " ms " | cut -c1-150
  done; done; done > $R/kernels.txt; echo "kernels exit $? ($SECONDS s)"
grep -E "^==|rs_kernel|edge_kernel" $R/kernels.txt | sed 's/void (anonymous namespace):://; s/(CUtens.*//; s/((anon.*//' | cut -c1-140
