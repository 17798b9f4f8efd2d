#!/usr/bin/env bash
# Run 431 (session 47): the H200 forward record with the packed-weight cache, rerun with library 427 (run 426's was
# library 426, whose lean kernel carried tile_rt: KernelBench 64 TF32 on the H200). Then every record is library 427's.
# Before the call, on the host: bash dev/probes/build_probe.sh cur
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lcur && xz -dc .carry/libconvt1d_cur.so.xz > /tmp/lcur/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lcur/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
timeout 150 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt; grep -E "^(kernelbench_(64|74|79)|codec_dec_s8) " $R/bench_fwd_wcache.txt | cut -c1-90
