#!/usr/bin/env bash
# Run 314 (session 29): the packed-weight cache (convt1d_forward_cuda_cached, ConvTranspose1d.cache_packed_weights).
# After run 313: the cached forward through the C++ eager op, shapes that read no cache on the plain path, info() uses.
# Its tests and the forward tests it touches (test_cuda.py, test_cuda_wgmma.py), then the vocoder and latency rows
# timed without and with the cache, in alternating processes (plain, cached, cached, plain).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
python3 -c "from convt1d import _ops; assert _ops.eager_cached_op is not None, \"C++ cached op not loaded\"" || { tail -20 $R/build_op.txt; exit 1; }
timeout 120 python3 -m pytest -q -x tests/python/test_weight_cache.py > $R/test_wcache.txt 2>&1; echo "wcache tests exit $? ($SECONDS s)"; tail -3 $R/test_wcache.txt
timeout 400 python3 -m pytest -q tests/python/test_cuda.py tests/python/test_cuda_wgmma.py tests/python/test_sass_hazard.py > $R/test_cuda.txt 2>&1; echo "cuda tests exit $? ($SECONDS s)"; tail -3 $R/test_cuda.txt
S=upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,codec_dec_s8,codec_dec_s5,single_utterance_x8,kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,grouped_g4
for v in plain cache cache2 plain2; do
  F=""; case $v in cache*) F=--weight-cache;; esac
  timeout 100 python3 -m convt1d.bench --shapes $S --budget-ms 60 $F --out $R/bench_$v.json > $R/bench_$v.txt 2>&1; echo "bench $v exit $? ($SECONDS s)"
done
python3 - $R <<'PY'
import json, sys
R = sys.argv[1]
d = {v: {(r["name"], r["mode"]): r for r in json.load(open(f"{R}/bench_{v}.json"))["records"] if "speedup" in r}
     for v in ("plain", "cache", "cache2", "plain2")}
for k in d["plain"]:
    p = [d[v][k]["convt1d_ms"] for v in ("plain", "plain2") if k in d[v]]
    c = [d[v][k]["convt1d_ms"] for v in ("cache", "cache2") if k in d[v]]
    s = [d[v][k]["speedup"] for v in ("plain", "plain2", "cache", "cache2") if k in d[v]]
    print(f"{k[0]:22s} {k[1]:12s} plain {' '.join(f'{t:.4f}' for t in p)}  cached {' '.join(f'{t:.4f}' for t in c)}  "
          f"speedup plain/cached {' '.join(f'{t:.2f}' for t in s)}")
PY
