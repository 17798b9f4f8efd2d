#!/usr/bin/env bash
# Run 387 (session 38, H200): library 387 = 381 + 1) the lean register-A kernel (fwd_wgmma_rs_kernel LEAN: the stride-1
# forward with TMA boxes and direct stores compiled without the other paths; CONVT1D_WGMMA_RS_LEAN=0 the full kernel),
# 2) the fused one-phase forward's 128-position tile at one block per SM (CONVT1D_FUSED_BT=128x1; store_probe79, run 386:
# 0.405 ms against 0.448 at 256). Tests of both; each on / off rotated in one process (3 rounds); 381 and 387 in
# alternating processes (2 rounds): the other kernels' SASS is 381's, so those rows must read the same.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for v in 381 387; do mkdir -p /tmp/l$v && xz -dc .carry/libconvt1d_$v.so.xz > /tmp/l$v/libconvt1d.so; done
bash scripts/build_torch_op.sh /tmp/l387 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
cp /tmp/l387/libconvt1d_torch.so /tmp/l387/libconvt1d_torch.torch_version /tmp/l381/
export CONVT1D_LIBRARY=/tmp/l387/libconvt1d.so
(cd tests/python && timeout 100 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_lean or dram_rich" > $R/tests_lean.txt 2>&1; echo "tests lean exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_lean.txt | head -6 | cut -c1-250; tail -1 $R/tests_lean.txt)
(cd tests/python && timeout 60 python3 -m pytest -q -p no:cacheprovider test_cuda.py -k "fused_tile" > $R/tests_fused.txt 2>&1; echo "tests fused exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_fused.txt | head -4 | cut -c1-250; tail -1 $R/tests_fused.txt)
sweep() { # name shapes modes variants [kind]
  timeout 150 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes $2 --modes $3 --kind ${5:-fwd} \
    --variants $4 --out $R/sweep_$1.json > $R/sweep_$1.txt 2>&1; echo "sweep $1 exit $? ($SECONDS s)"
  grep -E "^(kern|hifi|codec|upsa|single)" $R/sweep_$1.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
}
sweep lean kernelbench_74,kernelbench_64 fp32,fp16,bf16 shipped,lean0=CONVT1D_WGMMA_RS_LEAN:0
sweep lean_gi kernelbench_74,kernelbench_64 fp32,bf16 shipped,lean0=CONVT1D_WGMMA_RS_LEAN:0 bwd_input
sweep fused1 kernelbench_79 fp32,fp32_strict,fp16,bf16 shipped,bt128x1=CONVT1D_FUSED_BT:128x1,bt128=CONVT1D_FUSED_BT:128
SH=kernelbench_74,kernelbench_64,kernelbench_79,hifigan_up3
for i in 1 2; do for v in 381 387; do
  CONVT1D_LIBRARY=/tmp/l$v/libconvt1d.so timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 30 \
    --shapes $SH --modes fp32,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(kernel|hifi|grou)' $R/ab_${v}_$i.txt | awk '{print $1, $2, $7}' | sed 's/kernelbench_/kb/; s/hifigan_//' | tr '\n' ' ')"
done; done
