#!/usr/bin/env bash
# Run 253 (session 23): the final library of the session (fwd_wgmma.cu back to cf1b32c's: carried rows and tensor stores
# both lost, runs 248-252): every wgmma test, test_cuda.py + test_autograd.py, memcheck on the register-A forward, and a
# repeat of the forward suite (not committed as the results: run 244's stay; this one shows they reproduce).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
timeout 100 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^kernelbench_(64|74|79) " $R/bench_fwd.txt | cut -c1-110
(cd /tmp && timeout 260 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py > $R/pytest_wgmma.txt 2>&1; echo "pytest wgmma exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_wgmma.txt | tail -4)
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest_cuda.txt 2>&1; echo "pytest cuda exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_cuda.txt | tail -4)
timeout 40 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd.txt 2>&1; echo "san fwd exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd.txt
