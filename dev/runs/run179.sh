#!/usr/bin/env bash
# Run 179 (session 18): the register-A grad_weight's grad_y rows grouped by residue in the stage (RsBwArgs::xg;
# CONVT1D_WGMMA_BW_RS_PERM=0: in order): its tests, sanitizer, A/B, the forward+backward rows of KernelBench.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 120 python3 -m pytest -x -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight_rs or grad_weight_deterministic" > $R/pytest_new.txt 2>&1; echo "pytest new exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_new.txt | tail -6)
timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight_rs.py > $R/san_bw_rs.txt 2>&1; echo "san bw rs exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_bw_rs.txt
timeout 100 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_64,kernelbench_74,hifigan_up3,hifigan_up4 --modes fp32,fp16,bf16 --budget-ms 50 \
  --variants "shipped,noperm=CONVT1D_WGMMA_BW_RS_PERM:0" --out $R/ab_bw_perm.json > $R/ab_bw_perm.txt 2>&1; echo "ab bw perm exit $? ($SECONDS s)"; cut -c1-160 $R/ab_bw_perm.txt | tail -12
timeout 80 python3 -m convt1d.bench --backward --shapes kernelbench_64,kernelbench_74,kernelbench_79 --modes fp32_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_weight,bf16_bwd_weight --budget-ms 60 --out $R/bench_kb_bwd.json > $R/bench_kb_bwd.txt 2>&1; echo "bench kb bwd exit $? ($SECONDS s)"; grep -E "^kernelbench" $R/bench_kb_bwd.txt | cut -c1-90
