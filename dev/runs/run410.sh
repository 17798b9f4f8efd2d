#!/usr/bin/env bash
# Run 410 (session 41, H200): Session 15's edge kernel with 16 weight loads in flight per warp instead of 8 (a trial
# switch, CONVT1D_EDGE_U16=1; run 408: that kernel stalls mostly on those loads). Edge tests with the switch; kernel
# times on codec_dec_s8 alone and beside the forward; rotated A/B, 3 rounds.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_410.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
(cd tests/python && CONVT1D_EDGE_U16=1 timeout 100 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge" > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests.txt | head -5 | cut -c1-300; tail -1 $R/tests.txt)
for m in fp16 fp32; do for v in "X=1" "CONVT1D_EDGE_U16=1" "CONVT1D_WGMMA_RS_EDGE_BESIDE=0" "CONVT1D_EDGE_U16=1 CONVT1D_WGMMA_RS_EDGE_BESIDE=0"; do
  echo "== codec_dec_s8 $m $v"; env $v timeout 30 python3 dev/python/profile_case.py codec_dec_s8 fwd $m times 2>&1 | grep -E " ms " | cut -c1-150
done; done > $R/kernels.txt; echo "kernels exit $? ($SECONDS s)"
grep -E "^==|rs_kernel|edge_" $R/kernels.txt | sed 's/void (anonymous namespace):://; s/(CUtens.*//; s/((anon.*//; s/EdgeArgs.*//' | cut -c1-120
timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 25 --order rotate --rounds 3 --shapes codec_dec_s8,hifigan_up1 \
  --modes fp32,fp16,bf16 --variants shipped,u16=CONVT1D_EDGE_U16:1 --out $R/edge.json > $R/edge.txt 2>&1; echo "edge ab exit $? ($SECONDS s)"
grep -E "^(hifi|codec)" $R/edge.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
