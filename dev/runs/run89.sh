#!/usr/bin/env bash
# Run 89: reduce with 8 channels per thread, planes transpose with one division per chunk: tests
# (wgmma + CUDA files, sanitizer on the planes grad_input / wgmma grad_weight), kernel times, then the
# full benchmark (forward, backward, KernelBench evaluation) for the committed results.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for s in codec_dec_s8 codec_dec_s5; do for k in bwd_input bwd_weight; do for m in bf16 fp32; do
  python3 dev/python/profile_case.py $s $k $m times 2>/dev/null >> $R/times.txt; done; done; done
grep -E "pack_bwd|planes_t|bw_reduce|bw_planes|bw_shift" $R/times.txt | cut -c1-100
(cd /tmp && timeout 230 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py $OLDPWD/tests/python/test_cuda.py -k "grad or backward or one_call or graph or determin" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
CONVT1D_BWD_INPUT=wgmma timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_planes_wgmma.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok" $R/san.txt | head -3
timeout 150 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt
timeout 70 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -4 $R/kernelbench.txt
