#!/usr/bin/env bash
# Run 307 (session 28): the fix as landed: run_rs never runs two 16-bit ldmatrix taps in a row (ldmatrix off where the
# tap step is a multiple of 8); the kernels' SASS is 1882709's (checked locally), so no timing. The checker (ldmatrix-tap
# hazards passed, nothing else), test_sass_hazard.py, the consecutive-ldmatrix-taps test twice, the 16-bit register-A
# forward tests, test_cuda.py + test_autograd.py.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
python3 dev/python/sass_wgmma_hazard.py --allow-ldsm-taps $CONVT1D_LIBRARY > $R/sass.txt 2>&1; echo "sass exit $? ($SECONDS s): $(tail -1 $R/sass.txt)"
for i in 1 2; do
  (cd tests/python && timeout 120 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py -k "ldmatrix_taps" \
    > $R/pytest_ldm_$i.txt 2>&1; echo "pytest ldm taps exit $? ($SECONDS s)"; tail -1 $R/pytest_ldm_$i.txt
   grep -E "^FAILED" $R/pytest_ldm_$i.txt | head -5 | cut -c1-250)
done
(cd tests/python && timeout 150 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py \
  -k "(f16 or bf16) and (test_wgmma_forward or spare_rows or rs_pack or rs_edge or one_phase)" \
  > $R/pytest_16.txt 2>&1; echo "pytest 16-bit exit $? ($SECONDS s)"; tail -1 $R/pytest_16.txt; grep -E "^FAILED" $R/pytest_16.txt | head -5 | cut -c1-250)
(cd tests/python && timeout 150 python3 -m pytest -q -rf -p no:cacheprovider test_cuda.py test_autograd.py test_sass_hazard.py > $R/pytest.txt 2>&1
 echo "pytest exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300)
