#!/usr/bin/env bash
# Run 455 (prepared in Session 51, whose 380 s of device time started no machine): library 455 = HEAD's source (library
# 454's rules: batch folding where it halves the 128-position tiles on layers of 2^31 multiply-adds, 2^27 in split
# TF32; the strided register-A grad_input from 7/8 of the SMs from a reduction of 256; the register-A grad_weight's
# floor of 8 stages; Session 51's fold layout in plain C and the fold's fallback where its scratch cannot be had, host
# code only). Before the call (~7 min on 2 cores):
#   bash dev/probes/build_probe.sh l455        -> .carry/libconvt1d_l455.so.xz (carry it)
# 1. Tests: test_cuda.py + test_autograd.py (the fold tests at the shipped rule), the strided grad_input's taken test
#    and the register-A grad_weight tests. 2. The zoo's records (forward+backward of the training layers, forward of
#    every layer) with library 455: bench/results/h100_zoo_fwd_bwd.json / h100_zoo_fwd.json are library 447's.
# 3. Learning: which kernels dac_44k_up2_train's backward runs (the one zoo row left at or below cuDNN: forward+backward
#    0.93-1.00x in run 453; bf16 grad_input 0.118 / 0.105 ms, grad_weight 0.101 / 0.083 against cuDNN in run 447) and
#    the backward's switches on it (dev/python/zoo_probe.py). 4. The suite's forward+backward in the four modes (a
#    check against run 442's record; last, as the device time allows). ~7 min.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l455 && xz -dc .carry/libconvt1d_l455.so.xz > /tmp/l455/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l455 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l455/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 200 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests (fold included) exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt
 timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "grad_input_strided_taken or grad_weight_rs" > $R/tests_wgmma.txt 2>&1
 echo "wgmma grad_input taken + grad_weight_rs tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_wgmma.txt)
tar -C "$OUT" -czf "$OUT/results.tgz" r
Z=bench/zoo.json
names() { python3 -c "import json,sys; print(','.join(c['name'] for c in json.load(open('$Z'))['suite'] if sys.argv[1] in c['tags']))" $1; }
timeout 150 python3 -m convt1d.bench --problems $Z --shapes $(names train) --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd \
  --budget-ms 40 --out $R/zoo_fwd_bwd.json --plot $R/zoo_fwd_bwd.png > $R/zoo_fwd_bwd.txt 2>&1
echo "zoo fwd+bwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/zoo_fwd_bwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 150 python3 -m convt1d.bench --problems $Z --budget-ms 40 --out $R/zoo_fwd.json --plot $R/zoo_fwd.png > $R/zoo_fwd.txt 2>&1
echo "zoo fwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/zoo_fwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
for v in default CONVT1D_WGMMA_BW_RS=0 CONVT1D_WGMMA_KSPLIT=0 CONVT1D_WGMMA_KSPLIT=2 CONVT1D_WGMMA_RS=0; do
  echo "== $v"; (if [ $v != default ]; then export "$v"; fi
  timeout 40 python3 dev/python/zoo_probe.py --shapes dac_44k_up2_train --modes fp32,bf16 --backward --reps 10 2>&1 | grep -v -i warn)
done > $R/probe_dac_up2.txt 2>&1; echo "dac_44k_up2_train probe exit $? ($SECONDS s)"; grep -c "" $R/probe_dac_up2.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 120 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd --budget-ms 30 \
  --out $R/suite_fwd_bwd.json > $R/suite_fwd_bwd.txt 2>&1
echo "suite fwd+bwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/suite_fwd_bwd.txt
