#!/usr/bin/env bash
# Run 389 (session 38, H200): library 388 (the lean 16-bit 64x2 register-A kernel). The tests run 388 did not select:
# test_cuda.py + test_autograd.py, then the rest of test_cuda_wgmma.py until the time limit.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_388.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
cd tests/python
timeout 200 python3 -m pytest -q -rf -p no:cacheprovider test_cuda.py test_autograd.py > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300
timeout 250 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py -k "not (rs_lean or dram_rich or rounded_boxes or fast_epilogue or (test_wgmma_forward and (rs or rspp or rsdirect or rsstaged)))" > $R/pytest_wgmma.txt 2>&1; echo "wgmma exit $? ($SECONDS s)"; tail -1 $R/pytest_wgmma.txt; grep -E "^FAILED" $R/pytest_wgmma.txt | head -5 | cut -c1-300; grep -oE "^[^ ]*\.py [.sFE]+" $R/pytest_wgmma.txt | tr -cd '.' | wc -c
