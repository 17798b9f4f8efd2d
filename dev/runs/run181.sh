#!/usr/bin/env bash
# Run 181 (session 18, last): run 180 showed the grad_weight 7-9% slower on hifigan_up3/up4 bf16 (no row grouping
# there: L_out*es a 16-byte multiple) - the slot map's runtime divisions in the producer's stage loop; now shifts,
# the slot hoisted. Tests, the A/B, then the committed forward+backward results.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 90 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight_rs or grad_weight_deterministic" > $R/pytest_new.txt 2>&1; echo "pytest new exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_new.txt | tail -6)
timeout 70 python3 dev/python/ab_wgmma.py --kind bwd_weight --shapes kernelbench_64,kernelbench_74,hifigan_up3,hifigan_up4 --modes fp32,bf16 --budget-ms 40 \
  --variants "shipped,noperm=CONVT1D_WGMMA_BW_RS_PERM:0" --out $R/ab_bw_perm.json > $R/ab_bw_perm.txt 2>&1; echo "ab bw perm exit $? ($SECONDS s)"; cut -c1-160 $R/ab_bw_perm.txt | tail -8
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^(kernelbench_(64|74|79)|hifigan_up[34]) .*(fp32|fp16|bf16)_fwd_bwd|bf16_bwd_weight" $R/bench_bwd.txt | cut -c1-80
