#!/usr/bin/env bash
# Run 122 (session 13): PAIRS with the alignment fix: the wgmma forward tests (every pick), the pairs and taken tests,
# the sanitizer on the register-A kernel (a new odd-length pairs case), then the committed results of the final
# library: forward suite, forward+backward suite, KernelBench evaluation.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or rs_pairs or rs_taken or grad_input_taken or grad_input_strided" > $R/pytest_wg.txt 2>&1; echo "pytest wgmma exit $?"; grep -E "passed|failed|^FAILED" $R/pytest_wg.txt | tail -8)
SAN_TILES=auto,128x2,64x1,256x1,bulk,staged,pp timeout 150 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd_rs.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY" $R/san_fwd_rs.txt | head -2; grep odd_rows_pairs $R/san_fwd_rs.txt | head -3
timeout 100 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt
timeout 150 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt
timeout 80 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -4 $R/kernelbench.txt
