#!/usr/bin/env bash
# Run 323 (session 29, two H100s): the wgmma kernels' shared-memory opt-in per device. The previous library (5264a90's
# build: one flag for the process) and this one, on the new two-device test and the existing one.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=index,name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/prev && xz -dc .carry/libconvt1d_prev.so.xz > /tmp/prev/libconvt1d.so
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
for d in .carry /tmp/prev; do bash scripts/build_torch_op.sh $d > $R/build_op_$(basename $d).txt 2>&1 || echo "op build $d failed"; done
echo "op builds ($SECONDS s)"
for lib in prev new; do
  L=$PWD/.carry/libconvt1d.so; [ $lib = prev ] && L=/tmp/prev/libconvt1d.so
  CONVT1D_LIBRARY=$L timeout 120 python3 -m pytest -q tests/python/test_cuda.py -k "second_device" > $R/test_$lib.txt 2>&1
  echo "== $lib: exit $?"; grep -E "passed|failed|Error|error" $R/test_$lib.txt | head -6 | cut -c1-300
done
