#!/usr/bin/env bash
# Run 441 (prepared in session 48, run in session 49): the H100 records with library 440 (library 427 + tiny float32 layers
# fp32-accurate with TF32 allowed; run 440: test_cuda.py + test_autograd.py 1733 passed). The forward record (its latency
# rows now show the tiny rule's fp32 errors), the KernelBench evaluation and the forward with the packed-weight cache.
# ~6 minutes. The forward+backward record and the tests: run442.sh. Before the call, on the host: bash
# dev/probes/build_probe.sh l440 (session 49 built it from 3583568: library 440 with the review's host-code mends).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l440 && xz -dc .carry/libconvt1d_l440.so.xz > /tmp/l440/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l440 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l440/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)(_small)?|codec_dec_s8) " $R/bench_fwd.txt | cut -c1-120
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -n 4 $R/kernelbench.txt | cut -c1-200
timeout 150 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt; grep -E "^(kernelbench_(64|74|79)|codec_dec_s8) " $R/bench_fwd_wcache.txt | cut -c1-90
