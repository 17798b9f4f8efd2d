#!/usr/bin/env bash
# Run 399 (session 39, H200): the final library (395 = the source of 9cc2a93 and of this commit) under the broad GPU tests:
# test_cuda.py + test_autograd.py, then test_cuda_wgmma.py's register-A tests (the lean kernel is in the forward and the
# stride-1 grad_input paths they cover) until the time limit.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_395.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
cd tests/python
timeout 200 python3 -m pytest -q -rf -p no:cacheprovider test_cuda.py test_autograd.py > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300
timeout 300 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py -k "rs or lean or dram_rich" > $R/pytest_wgmma.txt 2>&1; echo "wgmma exit $? ($SECONDS s)"; tail -1 $R/pytest_wgmma.txt; grep -E "^FAILED" $R/pytest_wgmma.txt | head -5 | cut -c1-300; grep -oE "^[^ ]*\.py [.sFE]+" $R/pytest_wgmma.txt | tr -cd '.' | wc -c
