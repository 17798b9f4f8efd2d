#!/usr/bin/env bash
# Run 326 (session 30, f7d2b2b's library: the vectorized weight pack): every wgmma test (test_cuda_wgmma.py), then
# compute-sanitizer memcheck on the register-A forward's small layers (each packs its weights with wgmma_pack_kernel).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
timeout 440 python3 -m pytest -q -x tests/python/test_cuda_wgmma.py > $R/tests_wgmma.txt 2>&1; echo "wgmma tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_wgmma.txt | head; tail -1 $R/tests_wgmma.txt
timeout 110 compute-sanitizer --tool memcheck --error-exitcode 3 python3 dev/python/san_fwd_rs.py > $R/memcheck_fwd_rs.txt 2>&1; echo "memcheck exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|error" $R/memcheck_fwd_rs.txt | head -3; tail -2 $R/memcheck_fwd_rs.txt
