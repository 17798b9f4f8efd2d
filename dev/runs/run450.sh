#!/usr/bin/env bash
# Run 450 (prepared in session 49, not run): the register-A grad_weight's least stages per split. Its splits of the
# (sample, chunk) reduction take 64 stages at least, which on small batches leaves few blocks: bigvgan_v2_up4_train
# (4 x 192 -> 96, K 4, stride 2, L 8192: 172 stages, 3 tiles) runs 6 blocks of 86 stages, 0.138 ms, against 0.093 on the
# SS kernel and 0.071 for cuDNN (bf16, run 448); bigvgan_v2_up3_train 12 blocks, 0.147 / 0.073 / 0.070. Library 450 =
# library 447 + CONVT1D_WGMMA_BW_RS_MINSTAGES (default 64: library 447's behaviour).
# 1. The register-A grad_weight tests (the new minstages1 pick: splits of one stage, bitwise repeatable), then
#    test_cuda.py + test_autograd.py. 2. MINSTAGES 64 / 32 / 16 / 8 in alternating processes, 2 rounds: bf16 and TF32
#    grad_weight of the zoo's stride-2/4 training layers and of the suite's register-A grad_weight layers (where the floor
#    should not bind: the control). ~8 minutes (554 grad_weight tests). Then pick the rule (a least stage count, or
#    one tied to the SMs the tiles leave idle).
# Before the call, on the host: bash dev/probes/build_probe.sh l450.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l450 && xz -dc .carry/libconvt1d_l450.so.xz > /tmp/l450/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l450 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l450/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 240 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "grad_weight_rs" > $R/tests_bw_rs.txt 2>&1
 echo "register-A grad_weight tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_bw_rs.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_bw_rs.txt
 timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt)
tar -C "$OUT" -czf "$OUT/results.tgz" r
ZS=bigvgan_v2_up3_train,bigvgan_v2_up4_train,dac_44k_up4_train,hifigan_v1_up3_train,hifigan_v1_up4_train,encodec_24k_up3_train,encodec_24k_up4_train
SS=kernelbench_64,kernelbench_74,hifigan_up3,hifigan_up4
for i in 1 2; do for m in 64 32 16 8; do
  CONVT1D_WGMMA_BW_RS_MINSTAGES=$m timeout 60 python3 -m convt1d.bench --problems bench/zoo.json --shapes $ZS --backward \
    --modes bf16_bwd_weight,fp32_bwd_weight --budget-ms 30 --out $R/zoo_ms${m}_$i.json > $R/zoo_ms${m}_$i.txt 2>&1
  CONVT1D_WGMMA_BW_RS_MINSTAGES=$m timeout 60 python3 -m convt1d.bench --shapes $SS --backward \
    --modes bf16_bwd_weight,fp32_bwd_weight --budget-ms 30 --out $R/suite_ms${m}_$i.json > $R/suite_ms${m}_$i.txt 2>&1
  echo "minstages $m round $i ($SECONDS s)"
  cat $R/zoo_ms${m}_$i.txt $R/suite_ms${m}_$i.txt | grep -E "_bwd_weight " | awk '{print "  ", $1, $2, $3, $4, $5}'
  tar -C "$OUT" -czf "$OUT/results.tgz" r
done; done
