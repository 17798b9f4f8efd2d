#!/usr/bin/env bash
# Run 300 (session 27): the rounded TF32 boxes (RX) with a wgmma wait before each tap's first loads (run 298's race),
# instantiated for 64-row tiles, taken by default on stride-1 layers. Tests: the RX tests, the TF32 register-A forward
# tests with RX forced, every register-A forward test as shipped, test_cuda + test_autograd; memcheck with RX forced;
# the A/B (RX on / off, rotated) on KernelBench 74 and the 64-row layers.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 100 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py -k "rounded_boxes or rs_kernel_args" \
  > $R/pytest_rx.txt 2>&1; echo "pytest rx exit $? ($SECONDS s)"; tail -1 $R/pytest_rx.txt; grep -E "^FAILED" $R/pytest_rx.txt | head -5 | cut -c1-300)
(cd tests/python && CONVT1D_WGMMA_RS_RX=1 timeout 100 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py \
  -k "tf32 and (rs_edge or rs_pack or spare_rows or test_wgmma_forward or one_phase or rs_forward_grouped)" \
  > $R/pytest_rx_forced.txt 2>&1; echo "pytest tf32 RX forced exit $? ($SECONDS s)"; tail -1 $R/pytest_rx_forced.txt; grep -E "^FAILED" $R/pytest_rx_forced.txt | head -8 | cut -c1-300)
CONVT1D_WGMMA_RS_RX=1 SAN_CASES=kb64ish,s4_wide,grouped_rows_x4 SAN_TILES=auto,64x1,64x2,wres,pp,staged \
  timeout 80 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_rs.txt 2>&1; echo "san rs exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_rs.txt | head -2
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 60 --order rotate --shapes kernelbench_74,hifigan_up4 \
  --modes fp32 --variants shipped,rx0=CONVT1D_WGMMA_RS_RX:0 --out $R/ab_rx.json > $R/ab_rx.txt 2>&1
echo "ab exit $? ($SECONDS s)"; cat $R/ab_rx.txt
(cd tests/python && timeout 170 python3 -m pytest -q -rf -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge or rs_pack or spare_rows or test_wgmma_forward or one_phase or rs_forward_grouped" \
  > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; tail -1 $R/pytest_wgmma.txt; grep -E "^FAILED" $R/pytest_wgmma.txt | head -8 | cut -c1-300)
(cd tests/python && timeout 100 python3 -m pytest -q -rf -p no:cacheprovider test_cuda.py test_autograd.py > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300)
