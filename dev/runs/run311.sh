#!/usr/bin/env bash
# Run 311 (session 28): the default memory pool keeps freed scratch across synchronizations for every CUDA entry point
# (convt1d_keep_pool_scratch; before, only the mma.sync forward set it): the KernelBench evaluation (one synchronized
# call at a time) with the new library and with 23c43ea's (.carry/libconvt1d_old.so.xz), order new old old new; the
# probe on the new one; test_cuda.py + test_autograd.py + test_sass_hazard.py.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/old /tmp/new  # each library with its own C++ op beside it (the op links the library in its folder)
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/old/libconvt1d.so
cp .carry/libconvt1d.so /tmp/new/libconvt1d.so
for v in old new; do bash scripts/build_torch_op.sh /tmp/$v > $R/build_op_$v.txt 2>&1; echo "op build $v exit $? ($SECONDS s)"; done
i=0
for v in new old old new; do i=$((i+1))
  CONVT1D_LIBRARY=/tmp/$v/libconvt1d.so timeout 100 python3 kernelbench/evaluate.py --out $R/kb_${i}_$v.json > $R/kb_${i}_$v.txt 2>&1
  echo "kb $v exit $? ($SECONDS s): $(grep -o 'convt1d [0-9.]* ms, speedup [0-9.]*x' $R/kb_${i}_$v.txt | tr '\n' ' ')"
done
CONVT1D_LIBRARY=/tmp/new/libconvt1d.so timeout 100 python3 dev/python/kb_sync_probe.py 74 79 64 > $R/probe.txt 2>&1; echo "probe exit $? ($SECONDS s)"; grep "==" $R/probe.txt
(cd tests/python && CONVT1D_LIBRARY=/tmp/new/libconvt1d.so timeout 200 python3 -m pytest -q -rf -p no:cacheprovider test_cuda.py test_autograd.py test_sass_hazard.py > $R/pytest.txt 2>&1
 echo "pytest exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300)
