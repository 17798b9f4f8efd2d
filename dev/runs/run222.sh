#!/usr/bin/env bash
# Run 222 (session 21, final library, part 1): every wgmma test, test_cuda.py + test_autograd.py, the sanitizer on the
# register-A forward (its one-phase form included). Part 2, the committed results: run223.sh.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
(cd /tmp && timeout 250 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -6)
(cd /tmp && timeout 90 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_cuda.txt | tail -4)
timeout 30 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
CONVT1D_WGMMA_RS_OP=1 SAN_CASES=kb79ish timeout 30 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_op.txt 2>&1; echo "san op exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_op.txt
