#!/usr/bin/env bash
# Run 451 (prepared in session 49, not run): the forward's tiles on the layers still below cuDNN after library 447 (run
# 447: dac_44k_up1_train 16-bit 0.75x, on the SS kernel of 128-row tiles at two blocks per SM, 124 us + its 34 us
# prepass; short_rows_c512 TF32 / 16-bit 0.80-0.83x; short_rows_c64 TF32 0.90x, strict 0.95x on the mma.sync kernel;
# hifigan_v1_up1_train strict 0.92x on the register-A kernel), and the strided grad_input's tile-count threshold
# (bigvgan_v2_up4_train: 128 register-A tiles, one short of the 132 SMs rs_bi_pays asks, 0.126 ms on the default path,
# 0.062 on the register-A kernel in bf16, run 447). dev/python/ab_wgmma.py, rotated in one process, 3 rounds: every
# forward kind and SS tile forced, and the grad_input paths. Library 447 (or 450: the same forward). ~5 minutes.
# Before the call, on the host: bash dev/probes/build_probe.sh l450 (or l447).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
LIB=$(ls .carry/libconvt1d_l450.so.xz .carry/libconvt1d_l447.so.xz 2>/dev/null | head -1); echo "library $LIB"
mkdir -p /tmp/lab && xz -dc $LIB > /tmp/lab/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lab > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lab/libconvt1d.so
V=shipped,mma_sync,wg128,wg128x2,wg256,wg64=CONVT1D_WGMMA:1+CONVT1D_WGMMA_BR:64,rsbulk=CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_BULK:1
ab() { # name problems shapes modes [kind variants]
  timeout 150 python3 dev/python/ab_wgmma.py --problems $2 --shapes $3 --modes $4 --kind ${5:-fwd} --variants ${6:-$V} \
    --order rotate --rounds 3 --budget-ms 20 --out $R/$1.json > $R/$1.txt 2>&1
  echo "$1 exit $? ($SECONDS s)"; tail -n 30 $R/$1.txt | cut -c1-160
  tar -C "$OUT" -czf "$OUT/results.tgz" r
}
ab zoo_fwd bench/zoo.json dac_44k_up1_train,hifigan_v1_up1_train,encodec_24k_up2_infer fp32,fp32_strict,fp16
ab probe_fwd dev/python/probe_shapes.json short_rows_c512,short_rows_c64 fp32,fp32_strict,fp16
ab zoo_bwd_input bench/zoo.json bigvgan_v2_up3_train,bigvgan_v2_up4_train,dac_44k_up4_train fp32,bf16 bwd_input \
  shipped,rs=CONVT1D_WGMMA_RS:1,planes=CONVT1D_BWD_INPUT:planes,tc=CONVT1D_BWD_INPUT:tc
