#!/usr/bin/env bash
# Run 404 (session 41, H200): what the SS kernel (both operands from shared memory, x transposed by a pre-pass) costs
# on the 16-bit layers against the register-A kernel (library 400), split into its kernels. Question: would an SS
# kernel that reads x in place (16-bit wgmma A may be MN-major: positions contiguous, one TMA box per tap, no
# transpose) beat the register-A kernel anywhere? Rotated in one process, 2 rounds: shipped / SS 128x2 / SS 256; then
# torch.profiler kernel times of one call of each (dev/python/profile_case.py ... times).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_400.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
S=kernelbench_64,hifigan_up1,upsample_x8_bias,codec_dec_s8,codec_dec_s5,hifigan_up2
timeout 200 python3 dev/python/ab_wgmma.py --budget-ms 25 --order rotate --rounds 2 --shapes $S --modes fp16,bf16 \
  --variants shipped,wg128x2,wg256 --out $R/ss.json > $R/ss.txt 2>&1; echo "ss exit $? ($SECONDS s)"
grep -E "^(kern|hifi|upsa|codec)" $R/ss.txt | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g; s/(\([0-9.]*\)x,)/\1x/g' | cut -c1-300
for s in ${S//,/ }; do
  for v in shipped "CONVT1D_WGMMA=1 CONVT1D_WGMMA_BR=128x2" "CONVT1D_WGMMA=1 CONVT1D_WGMMA_BR=256"; do
    echo "== $s fp16 $v"; env $([ "$v" = shipped ] || echo $v) timeout 30 python3 dev/python/profile_case.py $s fwd fp16 times 2>&1 | cut -c1-170
  done
done > $R/kernels.txt; echo "kernels exit $? ($SECONDS s)"
grep -v "^$" $R/kernels.txt | cut -c1-160 | head -80
