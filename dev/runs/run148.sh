#!/usr/bin/env bash
# Run 148 (session 15): the C++ library rebuilt for the device's torch with the convt1d:: ops' CPU/CUDA kernels
# (scripts/build_torch_op.sh, kept under $OUT/lib); autograd / compile / CUDA tests through them (compile, graphs,
# autocast, the op path); the latency rows with the per-gradient modes, which call the backward op.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=f08e342
R=$OUT/r; mkdir -p $R $OUT/lib
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; tail -1 $R/build_op.txt; cp .carry/libconvt1d_torch.so .carry/libconvt1d_torch.torch_version $OUT/lib/
python3 -c "import torch, convt1d; from convt1d import _ops; assert _ops.eager_op_cuda; print(torch.ops.convt1d.conv_transpose1d.default._schema)"
(cd /tmp && timeout 300 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_autograd.py $OLDPWD/tests/python/test_compile.py $OLDPWD/tests/python/test_module.py $OLDPWD/tests/python/test_errors.py $OLDPWD/tests/python/test_cuda.py -k "not fused and not strided" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 120 python3 -m convt1d.bench --backward --shapes kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8 --modes fp32_bwd_input,fp32_bwd_weight,fp32_strict_bwd_input,bf16_bwd_input,bf16_bwd_weight,fp32_fwd_bwd --out $R/latency_grads.json > $R/latency_grads.txt 2>&1; echo "bench exit $?"; grep -E "small|single" $R/latency_grads.txt | cut -c1-90
