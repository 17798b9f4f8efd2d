#!/usr/bin/env bash
# Run 289 (session 26, final library: spare rows + the pack without its zeroing pass where the scatter covers the packed
# tensor; run 288's edge kernel and 16-bit pack pairs reverted): the wgmma tests run 288 ran (its pack tests fixed:
# layers large enough for the register-A kernel), test_cuda.py + test_autograd.py, memcheck, then the committed results
# (h100_fwd.json) as run 283; run 290 the forward+backward suite.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge or rs_pack or spare_rows or test_wgmma_forward or grad_input_adjoint" \
  > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; tail -1 $R/pytest_wgmma.txt; grep -E "^FAILED" $R/pytest_wgmma.txt | head -5 | cut -c1-300)
(cd tests/python && timeout 100 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300)
SAN_CASES=kb64ish,s5_spare,s6_spare SAN_TILES=auto timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_rs.txt 2>&1; echo "san rs exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_rs.txt | head -2
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|upsample_x8_bias|hifigan_up1|codec_dec_s5|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-110
