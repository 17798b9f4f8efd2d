#!/usr/bin/env bash
# Run 178 (session 18): grouped rows with each box started at a 16-byte column (run 177: a TMA box starting
# off a 16-byte multiple is an illegal instruction) and the consumers' per-k-step column shift. Tests, sanitizer on
# the grouped layers, A/B against the bulk copies on the stride-1 grad_inputs, the forward rows of KernelBench (the
# consumers' k-step offsets changed for every layer: compare with run 173), forward+backward of KernelBench.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 100 python3 -m pytest -x -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grouped_rows or grad_input_adjoint or rs_grad_input_taken or rs_pairs or rs_taken" > $R/pytest_new.txt 2>&1; echo "pytest new exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_new.txt | tail -6)
SAN_CASES=grouped_rows,grouped_rows_x4 SAN_TILES=auto,64x1,bulk timeout 80 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_fwd_rs.txt 2>&1; echo "san rs exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_fwd_rs.txt; grep -E "^grouped" $R/san_fwd_rs.txt | awk '{print $1,$2,$3,$4,$6,$8}' | tr '\n' ';'; echo
timeout 90 python3 dev/python/ab_wgmma.py --kind bwd_input --shapes kernelbench_64,kernelbench_74 --modes fp32,fp32_strict,fp16,bf16 --budget-ms 50 \
  --variants "shipped,bulk=CONVT1D_WGMMA_RS_GROUPS:0" --out $R/ab_groups.json > $R/ab_groups.txt 2>&1; echo "ab groups exit $? ($SECONDS s)"; cut -c1-160 $R/ab_groups.txt | tail -10
timeout 60 python3 -m convt1d.bench --shapes kernelbench_64,kernelbench_74,kernelbench_79 --budget-ms 60 --out $R/bench_kb_fwd.json > $R/bench_kb_fwd.txt 2>&1; echo "bench kb fwd exit $? ($SECONDS s)"; grep -E "^kernelbench" $R/bench_kb_fwd.txt | cut -c1-90
timeout 100 python3 -m convt1d.bench --backward --shapes kernelbench_64,kernelbench_74,kernelbench_79 --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,bf16_bwd_input --budget-ms 60 --out $R/bench_kb_bwd.json > $R/bench_kb_bwd.txt 2>&1; echo "bench kb bwd exit $? ($SECONDS s)"; grep -E "^kernelbench" $R/bench_kb_bwd.txt | cut -c1-90
