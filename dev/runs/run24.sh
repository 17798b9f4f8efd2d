#!/usr/bin/env bash
# Run 24: the shipped SS wgmma forward (heuristic of run 23): its tests, the whole forward suite in all
# four modes (bench_fwd.json/png), and forward+backward / grad_input modes over the suite.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 90 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -3) | tee $R/pytest_wgmma.txt
timeout 260 python3 -m convt1d.bench --budget-ms 150 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean|^[a-z]" $R/bench_fwd.txt | cut -c1-150 | tail -75
timeout 230 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,bf16_bwd_input --budget-ms 100 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean|_fwd_bwd|_bwd_input" $R/bench_bwd.txt | cut -c1-150 | tail -110
