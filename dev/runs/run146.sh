#!/usr/bin/env bash
# Run 146 (session 15): the edge rule (saved rounds' MMA work >= 96M 16-bit multiply-adds): edge tests, the wgmma
# forward tests, A/B on the three layers it may take; then the committed results (forward, forward+backward, KernelBench)
# with the edge kernel and the C++ eager op (carried, built in run 141).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=e4c0b0f
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda, 'C++ op not loaded'"
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs_edge or test_wgmma_forward" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
timeout 100 python3 dev/python/ab_wgmma.py --shapes codec_dec_s8,hifigan_up1,upsample_x8_bias --modes fp32,fp32_strict,bf16 \
  --variants shipped,noedge=CONVT1D_WGMMA_RS_EDGE:0 --out $R/ab_edge.json > $R/ab.txt 2>&1; echo "ab exit $?"; cut -c1-300 $R/ab.txt | tail -9
timeout 150 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt
timeout 80 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -4 $R/kernelbench.txt
