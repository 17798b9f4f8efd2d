#!/usr/bin/env bash
# Run 374 (session 36): L2 eviction policies in the register-A forward. store_probe74 (run 259) read KernelBench 74's
# data movement at 0.634 ms, 0.608 with x's loads and y's stores evict_first; the kernel never had the hints. Library 374:
# x's TMA boxes and y's stride-1 stores (direct and staged) take an L2 policy, evict_first with CONVT1D_WGMMA_RS_L2X=1,
# else evict_normal (what a plain access gets). 1) Register-A tests with the hints on. 2) Session 33's library (360), 374
# and 374 with the hints on, in alternating processes, 3 rounds. 3) 374 off / on rotated in one process.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 360 374; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l374 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l374/libconvt1d_torch.so /tmp/l374/libconvt1d_torch.torch_version /tmp/l360/
export CONVT1D_LIBRARY=/tmp/l374/libconvt1d.so
(cd tests/python && CONVT1D_WGMMA_RS_L2X=1 timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_taken or (test_wgmma_forward and (rsstaged or rsdirect or rspairs or rscp or rsbulk)) or fast_epilogue" > $R/tests_l2x.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_l2x.txt | head -6 | cut -c1-250; tail -1 $R/tests_l2x.txt)
SH=kernelbench_64,kernelbench_74,hifigan_up3
for i in 1 2 3; do for v in 360 374 374x; do
  L=/tmp/l${v%x}/libconvt1d.so; X=0; [ "$v" = 374x ] && X=1
  CONVT1D_WGMMA_RS_L2X=$X CONVT1D_LIBRARY=$L timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 \
    --shapes $SH --modes fp32,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|codec|upsa)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
timeout 120 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes $SH --modes fp32,bf16 \
  --variants shipped,l2x=CONVT1D_WGMMA_RS_L2X:1 --out $R/ab_l2x.json > $R/ab_l2x.txt 2>&1; echo "ab exit $? ($SECONDS s)"; grep -E "^(kern|hifi)" $R/ab_l2x.txt | sed 's/, err [0-9.e+-]*//g; s/ TF\/s//g'
