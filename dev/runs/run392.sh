#!/usr/bin/env bash
# Run 392 (session 38, H200): library 392 = 388 + the lean kernel for TF32 64x2 tiles too, with its A fragments loaded a
# k-step ahead (PREF; run 391's profile of KernelBench 74 TF32: the rounding adds waiting on their shared-memory loads,
# short-scoreboard and wait stalls in the MMA loop). Lean tests and the TF32 register-A forward picks; lean on / off
# rotated (3 rounds), KernelBench 74 TF32 forward and grad_input; the forward suite and the KernelBench evaluation.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l392 && xz -dc .carry/libconvt1d_392.so.xz > /tmp/l392/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l392 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l392/libconvt1d.so
(cd tests/python && timeout 60 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_lean or dram_rich or (test_wgmma_forward and tf32 and (rs or rspp or rsdirect))" > $R/tests.txt 2>&1; echo "tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests.txt | head -6 | cut -c1-250; tail -1 $R/tests.txt)
for k in fwd bwd_input; do
  timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 3 --shapes kernelbench_74 --modes fp32 --kind $k \
    --variants shipped,lean0=CONVT1D_WGMMA_RS_LEAN:0 --out $R/lean_$k.json > $R/lean_$k.txt 2>&1; echo "lean $k exit $? ($SECONDS s)"
  grep -E "^kern" $R/lean_$k.txt | sed 's/ *[0-9]* TF\/s//g' | cut -c1-200
done
timeout 110 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)) " $R/bench_fwd.txt | cut -c1-90
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-200
