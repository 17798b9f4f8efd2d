#!/usr/bin/env bash
# Run 377 (session 36): an L2 prefetch of the block's next tile's input, for KernelBench 64 TF32 whose stages arrive late
# (run 372: the consumers' full-barrier wait 29% of the samples, the ring full). With each stage's input boxes the
# producer brings the same chunk's boxes of the block's next tile into L2 (cp.async.bulk.prefetch.tensor), a tile ahead;
# CONVT1D_WGMMA_RS_L2PF=1, off by default. Session 25 tried a prefetch some stages ahead in a build that also slowed the
# kernels (2.20-2.37 ms against 2.025). Library 377: checked before the run that the consumers' SASS is Session 33's
# and nothing spills. 1) Register-A tests with the prefetch on. 2) 360, 377 and 377 with the prefetch on in alternating
# processes, 3 rounds. 3) 377 off / on rotated in one process.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 377; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l377 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l377/libconvt1d_torch.so /tmp/l377/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l377/libconvt1d.so
(cd tests/python && CONVT1D_WGMMA_RS_L2PF=1 timeout 100 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_taken or fast_epilogue or (test_wgmma_forward and (rs or rspp or rsbulk))" > $R/tests_l2pf.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_l2pf.txt | head -6 | cut -c1-250; tail -1 $R/tests_l2pf.txt)
SH=kernelbench_64,kernelbench_74,hifigan_up1
for i in 1 2 3; do for v in 360 377 377p; do
  P=0; [ "$v" = 377p ] && P=1
  CONVT1D_WGMMA_RS_L2PF=$P CONVT1D_LIBRARY=/tmp/l${v%p}/libconvt1d.so timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes $SH --modes fp32,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes $SH --modes fp32,bf16 \
  --variants shipped,l2pf=CONVT1D_WGMMA_RS_L2PF:1 --out $R/ab_l2pf.json > $R/ab_l2pf.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/ab_l2pf.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
