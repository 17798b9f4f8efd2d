#!/usr/bin/env bash
# Run 167 (session 17): the depthwise forward rewritten (fwd_depthwise.cu: no 64-bit division per output, taps
# unrolled, weights in registers); position pairs on every 16-bit stride-1 layer. C++ op rebuilt for torch 2.11
# (convt1d_torch.cpp changed in fba04ab); tests of both changes, compute-sanitizer on the depthwise kernel, the
# depthwise shapes and KernelBench 74 against cuDNN; which kernels the depthwise backward runs; grouped_g4's
# grad_input through the phase planes (CONVT1D_BWD_INPUT=planes) against the shipped mma.sync kernel.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"; tail -1 $R/build_op.txt
cp .carry/libconvt1d_torch.so .carry/libconvt1d_torch.torch_version $R/
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=100 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "depthwise or test_cuda_f64 or test_cuda_half" > $R/pytest_dw.txt 2>&1; echo "pytest dw exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_dw.txt | tail -8)
(cd /tmp && timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest -q -x -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "depthwise and (f16 or f64)" > $R/san_dw.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY|passed|failed" $R/san_dw.txt | tail -3)
timeout 60 python3 -m convt1d.bench --shapes depthwise_s2,antialias_up2_depthwise --modes fp32,fp32_strict,fp16,bf16 --budget-ms 100 --out $R/bench_dw.json > $R/bench_dw.txt 2>&1; echo "bench dw exit $?"; grep -E "^(depthwise|antialias|copy)" $R/bench_dw.txt | cut -c1-120
timeout 60 python3 -m convt1d.bench --shapes kernelbench_74 --modes fp16,bf16 --budget-ms 100 --out $R/bench_74.json > $R/bench_74.txt 2>&1; echo "bench 74 exit $?"; grep -E "^kernelbench" $R/bench_74.txt | cut -c1-100
python3 - > $R/dw_kernels.txt 2>&1 <<'P'
import torch, convt1d
from torch.profiler import profile, ProfilerActivity
x = torch.randn(4, 256, 4096, device="cuda", requires_grad=True)
m = convt1d.ConvTranspose1d(256, 256, 4, stride=2, padding=1, output_padding=1, groups=256).cuda()
with profile(activities=[ProfilerActivity.CUDA]) as p:
    m(x).sum().backward(); torch.cuda.synchronize()
print(sorted({e.name[:90] for e in p.events() if e.device_type == torch.autograd.DeviceType.CUDA}))
P
cat $R/dw_kernels.txt | cut -c1-600
timeout 80 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes grouped_g4 --modes fp32,bf16 --budget-ms 100 \
  --variants "shipped,planes=CONVT1D_BWD_INPUT:planes" --out $R/ab_g4_bi.json > $R/ab_g4_bi.txt 2>&1; echo "ab g4 exit $?"; cut -c1-250 $R/ab_g4_bi.txt | tail -3
(cd /tmp && timeout 150 python3 -m pytest -q -x --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or adjoint or rs_pairs or rs_taken" > $R/pytest_wg.txt 2>&1; echo "pytest wg exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_wg.txt | tail -6)
