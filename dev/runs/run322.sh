#!/usr/bin/env bash
# Run 322 (session 29): the final library's wgmma tests (test_cuda_wgmma.py) and the SASS check.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_cached_op is not None, \"C++ cached op not loaded\"" || exit 1
timeout 530 python3 -m pytest -q tests/python/test_cuda_wgmma.py tests/python/test_sass_hazard.py > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; tail -3 $R/tests.txt
