#!/usr/bin/env bash
# Run 315 (session 29): the weight cache's final library. Its tests, the forward tests run 314's 400 s left unrun
# (edge kernel beside the register-A forward, planes units, one-phase grad_weight), then the whole forward suite
# plain (h100_fwd ...) and with --weight-cache (bench/results/h100_fwd_weight_cache.json).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_cached_op is not None, \"C++ cached op not loaded\"" || { tail -20 $R/build_op.txt; exit 1; }
timeout 120 python3 -m pytest -q tests/python/test_weight_cache.py > $R/test_wcache.txt 2>&1; echo "wcache tests exit $? ($SECONDS s)"; tail -1 $R/test_wcache.txt
timeout 150 python3 -m pytest -q tests/python/test_cuda_wgmma.py -k "rs_edge or planes_units or grad_weight_one_phase" > $R/test_rest.txt 2>&1; echo "rest tests exit $? ($SECONDS s)"; tail -1 $R/test_rest.txt
timeout 170 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd.txt
timeout 170 python3 -m convt1d.bench --budget-ms 100 --weight-cache --out $R/bench_fwd_wcache.json --plot $R/bench_fwd_wcache.png > $R/bench_fwd_wcache.txt 2>&1; echo "bench fwd cached exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_wcache.txt
grep -E "^(upsample_x8_bias|hifigan_up1|codec_dec_s5|codec_dec_s8|single_utterance_x8) " $R/bench_fwd_wcache.txt | cut -c1-110
