#!/usr/bin/env bash
# Run 415 (session 42, H100): library 415 = 414 with rs_s1_direct's H100 rule narrowed by run 414 (direct stores on
# 64-row TF32 stride-1 tiles except one 32-channel chunk in with more than 32 rows, KernelBench 74's forward; 128-row
# tiles as before). 1) Tests: the rule tests, test_cuda.py + test_autograd.py. 2) Rotated A/B, 5 rounds, the rule as
# shipped / off / on every layer: KernelBench 74 and 64 forward and grad_input, the probe layers. 3) The KernelBench
# evaluation and the H100 forward+backward record.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_415.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
(cd tests/python && timeout 90 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "s1_direct or dram_rich or rounded_boxes or rs_lean or rs_rounded" > $R/tests_rules.txt 2>&1; echo "rule tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests_rules.txt | head -8 | cut -c1-300; tail -1 $R/tests_rules.txt)
(cd tests/python && timeout 110 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1; echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests_cuda.txt | head -8 | cut -c1-300; tail -1 $R/tests_cuda.txt)
ab() { # name timeout kind shapes modes variants [problems]
  timeout $2 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind $3 --shapes $4 --modes $5 \
    --variants $6 ${7:+--problems $7} --out $R/$1.json > $R/$1.txt 2>&1; echo "$1 exit $? ($SECONDS s)"
  grep -E "^[a-z]" $R/$1.txt | grep -E "cudnn" | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g' | cut -c1-220; }
S1="shipped,s1off=CONVT1D_WGMMA_RS_S1DIRECT:0,s1on=CONVT1D_WGMMA_RS_S1DIRECT:1"
ab s1_kb 70 fwd kernelbench_74,kernelbench_64 fp32 $S1
ab s1_kb_gi 70 bwd_input kernelbench_74,kernelbench_64 fp32 $S1
ab s1_probe 100 fwd s1_64to64_d3,kb74_k3,s1_w80k,s1_w96k,s1_64to32_d3 fp32 $S1 dev/python/probe_shapes.json
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-200
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^kernelbench_(64|74|79) +fp32_(fwd_bwd|bwd_input) " $R/bench_bwd.txt | cut -c1-100
