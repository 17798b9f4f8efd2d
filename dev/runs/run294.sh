#!/usr/bin/env bash
# Run 294 (session 26, review): the wgmma tests that now share profiled_forward / one_element_in (their assertions
# unchanged), on the final library.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd tests/python && timeout 400 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py \
  -k "rs_taken or rs_pairs or spare_rows or rs_pack or one_phase or rs_forward_grouped or rs_edge or unaligned_input or rs_kernel_args" \
  > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300)
