#!/usr/bin/env bash
# Run 343 (session 31): the final library (.carry/libconvt1d_pdl.so.xz) under the tests that run the SS kernel in
# grad_input mode (a plain launch; its pdl_wait returns at once) and the rest of the CUDA paths: test_cuda.py,
# test_autograd.py, the wgmma grad_input and split-reduction tests.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/pdl && xz -dc .carry/libconvt1d_pdl.so.xz > /tmp/pdl/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/pdl > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/pdl/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
cd tests/python
timeout 420 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py test_cuda_wgmma.py -k "not test_cuda_wgmma or grad_input or ksplit or programmatic" \
  > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -6 | cut -c1-300; tail -1 $R/tests.txt
