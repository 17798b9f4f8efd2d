#!/usr/bin/env bash
# Run 446 (session 49): why run 445's zoo rows fall below cuDNN. dac_44k_up1_train's forward (8 x 1536 -> 768, K 16,
# stride 8, L 34) took 0.60 ms in fp16 against cuDNN's 0.125 and 0.13 ms for the same weights at batch 1, L 862; the
# others (bigvgan_v2_up3/4_train 16-bit forward+backward, hifigan_v1_up1_train strict forward, dac_44k_up2_train) share
# short rows in a batch. dev/python/zoo_probe.py lists each call's kernels and their times (torch.profiler), with the
# defaults and with the forward's switches. Before the call: bash dev/probes/build_probe.sh l440.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l440 && xz -dc .carry/libconvt1d_l440.so.xz > /tmp/l440/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l440 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l440/libconvt1d.so
P="timeout 60 python3 dev/python/zoo_probe.py"
$P --shapes dac_44k_up1_train,dac_44k_up1_infer --modes fp16,fp32 2>&1 | tee $R/probe_dac1.txt
$P --shapes hifigan_v1_up1_train --modes fp32_strict,fp32 2>&1 | tee $R/probe_hifi1.txt
$P --shapes bigvgan_v2_up4_train,dac_44k_up2_train --modes bf16 --backward 2>&1 | tee $R/probe_bwd.txt
for e in CONVT1D_WGMMA_RS=0 CONVT1D_WGMMA=0 CONVT1D_WGMMA_RS_RGROUP=0 CONVT1D_WGMMA_RS_TILE=128x2 CONVT1D_FORCE_DIRECT=1; do
  env $e $P --shapes dac_44k_up1_train --modes fp16 --reps 10 2>&1 | tee -a $R/probe_dac1_switches.txt
done
