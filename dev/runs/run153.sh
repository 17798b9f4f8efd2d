#!/usr/bin/env bash
# Run 153 (session 16): the C++ eager op rebuilt for the device's torch (it now checks operands itself; functional.py
# calls it first); the register-A forward on two k-steps for half-empty chunks (KernelBench 74 16-bit). Forward tests
# through the register-A kernel, eager / autograd / error tests on CUDA, A/B of the k-step skip, the latency rows.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=5aeed67
R=$OUT/r; mkdir -p $R $OUT/lib
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"; tail -1 $R/build_op.txt
cp .carry/libconvt1d_torch.so .carry/libconvt1d_torch.torch_version $OUT/lib/
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
timeout 100 python3 dev/python/ab_wgmma.py --shapes kernelbench_74,kernelbench_74_small --modes fp32,fp32_strict,fp16,bf16 \
  --variants shipped,nokskip=CONVT1D_WGMMA_RS_KSKIP:0 --out $R/ab_kskip.json > $R/ab.txt 2>&1; echo "ab exit $?"; cut -c1-300 $R/ab.txt | tail -10
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=180 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or adjoint or rs_taken or rs_pairs or rs_edge" > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_wgmma.txt | tail -8)
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_errors.py $OLDPWD/tests/python/test_autograd.py $OLDPWD/tests/python/test_functional.py $OLDPWD/tests/python/test_module.py $OLDPWD/tests/python/test_cuda.py -k "not suite and not strided" > $R/pytest_eager.txt 2>&1; echo "pytest eager exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_eager.txt | tail -8)
timeout 120 python3 -m convt1d.bench --shapes kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8,kernelbench_74 --budget-ms 60 --out $R/bench_lat_fwd.json > $R/bench_lat_fwd.txt 2>&1; echo "bench exit $?"; grep -E "kernelbench|single" $R/bench_lat_fwd.txt | cut -c1-150
