#!/usr/bin/env bash
# Run 454 (session 50): library 454 = library 453 with the rules run 453 measured: batch folding where it halves the
# 128-position tiles on layers of 2^31 multiply-adds or more (2^27 in split TF32), for the forward and the gradients;
# the strided register-A grad_input from 7/8 of the SMs' tiles only from a reduction s*C_out*T of 256; the register-A
# grad_weight's floor of 8 stages (run 450). 1. Tests: test_cuda.py (the fold tests at the new rule, the tiny-layer
# accuracy test against the terms' size) + test_autograd.py; the strided grad_input's taken test and the register-A
# grad_weight tests. 2. The zoo's records (forward+backward of the training layers, forward of every layer) with
# library 454. 3. The suite's forward+backward in the four modes (a check against run 442's record: the backward's
# rules changed; last, as the device time allows). Before the call: bash dev/probes/build_probe.sh l454.
# Session 51 had 380 s of device time: the steps' limits are cut so the tests and the zoo's forward+backward fit.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l454 && xz -dc .carry/libconvt1d_l454.so.xz > /tmp/l454/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l454 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l454/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 110 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests (fold included) exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt
 timeout 90 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "grad_input_strided_taken or grad_weight_rs" > $R/tests_wgmma.txt 2>&1
 echo "wgmma grad_input taken + grad_weight_rs tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_wgmma.txt)
tar -C "$OUT" -czf "$OUT/results.tgz" r
Z=bench/zoo.json
names() { python3 -c "import json,sys; print(','.join(c['name'] for c in json.load(open('$Z'))['suite'] if sys.argv[1] in c['tags']))" $1; }
timeout 120 python3 -m convt1d.bench --problems $Z --shapes $(names train) --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd \
  --budget-ms 25 --out $R/zoo_fwd_bwd.json --plot $R/zoo_fwd_bwd.png > $R/zoo_fwd_bwd.txt 2>&1
echo "zoo fwd+bwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/zoo_fwd_bwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 100 python3 -m convt1d.bench --problems $Z --budget-ms 25 --out $R/zoo_fwd.json --plot $R/zoo_fwd.png > $R/zoo_fwd.txt 2>&1
echo "zoo fwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/zoo_fwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 120 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd --budget-ms 30 \
  --out $R/suite_fwd_bwd.json > $R/suite_fwd_bwd.txt 2>&1
echo "suite fwd+bwd exit $? ($SECONDS s)"; grep -E "geomean|slower than" $R/suite_fwd_bwd.txt
