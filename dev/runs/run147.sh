#!/usr/bin/env bash
# Run 147 (session 15): final checks on the device: the CMake configure of the C++ eager op against this CUDA torch
# (compile of its object only: the CUDA library itself comes carried), test_cuda_wgmma.py whole on the final library
# (edge kernel + C++ op), and the latency rows once more (their spread between runs).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=0e9b402
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cmake -S . -B /tmp/b -G Ninja -DCONVT1D_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90a-real 2>&1 | grep -E "convt1d|Error|error" ; time ninja -C /tmp/b CMakeFiles/convt1d_torch.dir/src/torch/convt1d_torch.cpp.o 2>&1 | tail -3; ninja -C /tmp/b -t commands convt1d_torch | grep -c CONVT1D_TORCH_CUDA) > $R/cmake_op.txt 2>&1; cat $R/cmake_op.txt | tail -8
(cd /tmp && timeout 400 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 100 python3 -m convt1d.bench --backward --shapes kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8 --modes fp32,fp32_strict,bf16,fp32_fwd_bwd,fp32_strict_fwd_bwd,bf16_fwd_bwd --out $R/latency.json > $R/latency.txt 2>&1; echo "bench exit $?"; grep -E "small|single" $R/latency.txt | cut -c1-75
