#!/usr/bin/env bash
# Run 290 (session 26, final library as run 289): the forward+backward suite (h100_fwd_bwd.json), as run 283.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" || exit 1
timeout 240 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt
# The zeroing pass skipped (the only device-side change since run 283): the spare-row library (ca8da03) against this one,
# alternating processes; KernelBench 64 strict read 4.650 ms in run 289's suite against 4.441 in run 283's.
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2; do for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 --shapes kernelbench_64,codec_dec_s8 \
    --modes fp32_strict,fp32,bf16 --variants shipped --out $R/ab_lib_${v}_$i.json > $R/ab_lib_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(codec|kernel)' $R/ab_lib_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
