#!/usr/bin/env bash
# Run 414 (session 42, H100): library 414 = 411 + two H100 rules from run 413 (host code): rs_s1_direct (the H200's
# stride-1 TF32 form on layers of 32 output channels or fewer, e.g. KernelBench 74's grad_input) and 256x1 tiles past
# 512 GEMM rows on both cards (hifigan_up2). 1) Tests: the new and changed rule tests, test_cuda.py + test_autograd.py.
# 2) Rotated A/B, 5 rounds: the rules on / off on the suite rows and on probe layers outside the suite (32 / 64 rows,
# 32-128 channels in; 768 / 1024 rows). 3) The H100 forward records and the KernelBench evaluation.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lib && xz -dc .carry/libconvt1d_414.so.xz > /tmp/lib/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lib > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lib/libconvt1d.so
(cd tests/python && timeout 120 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "s1_direct or dram_rich or rounded_boxes or rs_lean" > $R/tests_rules.txt 2>&1; echo "rule tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests_rules.txt | head -8 | cut -c1-300; tail -1 $R/tests_rules.txt)
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1; echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED|Error" $R/tests_cuda.txt | head -8 | cut -c1-300; tail -1 $R/tests_cuda.txt)
ab() { # name timeout kind shapes modes variants [problems]
  timeout $2 python3 dev/python/ab_wgmma.py --budget-ms 30 --order rotate --rounds 5 --kind $3 --shapes $4 --modes $5 \
    --variants $6 ${7:+--problems $7} --out $R/$1.json > $R/$1.txt 2>&1; echo "$1 exit $? ($SECONDS s)"
  grep -E "^[a-z]" $R/$1.txt | grep -E "cudnn" | sed 's/, err [0-9.e+-]*//g; s/ *[0-9]* TF\/s//g' | cut -c1-220; }
P=dev/python/probe_shapes.json
S1="shipped,s1off=CONVT1D_WGMMA_RS_S1DIRECT:0,s1on=CONVT1D_WGMMA_RS_S1DIRECT:1"
ab s1_gi 60 bwd_input kernelbench_74 fp32 $S1
ab s1_probe 100 fwd s1_64to32_d3,s1_32to32_d3,s1_128to32,s1_64to64_d3 fp32 $S1 $P
ab tile_probe 100 fwd s4_1024rows,s8_768rows fp32,fp16,bf16 shipped,t128x2=CONVT1D_WGMMA_RS_TILE:128x2 $P
ab tile_up2 60 fwd hifigan_up2 fp32,fp16,bf16 shipped,t128x2=CONVT1D_WGMMA_RS_TILE:128x2
timeout 120 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^(kernelbench_(64|74|79)|hifigan_up2) " $R/bench_fwd.txt | cut -c1-90
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-200
