#!/usr/bin/env bash
# Run 223 (session 21, final library, part 2): the committed results (forward suite, forward+backward suite with every
# per-gradient mode, KernelBench-style evaluation); then tile / edge A/Bs on the two vocoder layers under 2x (leads).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'" 2>/dev/null || { bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"; }
timeout 80 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt; grep -E "^kernelbench_(64|74|79) " $R/bench_fwd.txt | cut -c1-110
timeout 170 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_bwd.txt; grep -E "^(kernelbench_(64|74|79)) .*(fp32|fp32_strict|fp16|bf16)_fwd_bwd" $R/bench_bwd.txt | cut -c1-80
timeout 50 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $? ($SECONDS s)"; tail -4 $R/kernelbench.txt | cut -c1-60,150-220
timeout 90 python3 dev/python/ab_wgmma.py --budget-ms 80 --shapes hifigan_up1,upsample_x8_bias --modes fp32,bf16 \
  --variants "shipped,t128x2=CONVT1D_WGMMA_RS_TILE:128x2,edge=CONVT1D_WGMMA_RS_EDGE:1,nowres=CONVT1D_WGMMA_RS_WRES:0" --out $R/ab_vocoder.json > $R/ab_vocoder.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cut -c1-250 $R/ab_vocoder.txt | tail -4
