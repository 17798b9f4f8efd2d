#!/usr/bin/env bash
# Run 247 (session 22): the fused forward's extra n8 tile inside the k-loop in 16-bit (run 246: in its own k-loop it made
# a chain of dependent MMAs) and, on trial, lines by default in 16-bit too: KernelBench 79 A/B (shipped / spans), the
# fused tests, sanitizer; then the results as for run 244 (kept only if 16-bit lines win).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes kernelbench_79 --modes fp32,fp16,bf16 \
  --variants "shipped,spans=CONVT1D_FUSED_LINE:0" --out $R/ab_line16.json > $R/ab_line16.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_line16.txt | tail -3
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 100 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k fused > $R/pytest_fused.txt 2>&1; echo "pytest fused exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|^E " $R/pytest_fused.txt | tail -4)
CONVT1D_FUSED_LINE=1 timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san.txt
timeout 100 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^kernelbench_(64|74|79) " $R/bench_fwd.txt | cut -c1-110
timeout 250 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-60,150-220
