#!/usr/bin/env bash
# Run 266 (session 24, final library): grouped grad_weight on the register-A grad_weight kernel (bwd_weight_rs.cu), one
# launch per group on the group's views (VIEW instantiations; the groups-1 kernels' PTX unchanged, 29 of 29): the
# grouped tests, the register-A grad_weight tests, memcheck of every grouped path, grouped_g4's grad_weight against the
# mma.sync kernel and cuDNN, then the forward+backward suite again (the committed h100_fwd_bwd.json).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
(cd /tmp && timeout 120 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grouped or grad_weight_rs" > $R/pytest_grouped.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Error|assert" $R/pytest_grouped.txt | tail -6)
timeout 80 compute-sanitizer --tool memcheck python3 dev/python/san_grouped.py > $R/san_grouped.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_grouped.txt
timeout 60 python3 dev/python/ab_wgmma.py --kind bwd_weight --order rotate --budget-ms 60 --shapes grouped_g4 --modes fp32,fp16,bf16 \
  --variants "shipped,mma_sync=CONVT1D_WGMMA_BW_RS:0" --out $R/ab_gw_grouped.json > $R/ab_gw_grouped.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_gw_grouped.txt | tail -3
timeout 220 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^grouped_g4 " $R/bench_bwd.txt | cut -c1-80
