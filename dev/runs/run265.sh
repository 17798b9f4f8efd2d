#!/usr/bin/env bash
# Run 265 (session 24, final library): the register-A kernels' group views behind a template switch (VIEW), so that
# every groups-1 kernel's PTX is session 23's again (checked here: 92 of 92 identical but for labels and the argument
# block's size). The grouped tests and memcheck (the VIEW kernels), the library before the views against this one on
# KernelBench 74 TF32 (alternating processes), then the committed results: the forward and forward+backward suites.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
(cd /tmp && timeout 100 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grouped" > $R/pytest_grouped.txt 2>&1; echo "pytest grouped exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Error|assert" $R/pytest_grouped.txt | tail -6)
timeout 70 compute-sanitizer --tool memcheck python3 dev/python/san_grouped.py > $R/san_grouped.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_grouped.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2; do for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 40 python3 dev/python/ab_wgmma.py --budget-ms 60 --shapes kernelbench_74 --modes fp32 --variants shipped \
    --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1; echo "$v $i: $(grep -o 'shipped *[0-9.]*' $R/ab_${v}_$i.txt)"
done; done
timeout 110 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|grouped_g4) " $R/bench_fwd.txt | cut -c1-110
timeout 220 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^grouped_g4 " $R/bench_bwd.txt | cut -c1-80
