#!/usr/bin/env bash
# Run 270 (session 25, the final library = 918310d's kernels after run 269's revert): (1) the forward suite in both timing
# orders, convt1d-cuDNN-cuDNN-convt1d (the committed method) and mirrored (that, then cuDNN-convt1d-convt1d-cuDNN, each
# side at the ends and in the middle alike: session 23 saw up to 5% bias by place on power-hungry layers), to measure
# whether the committed ratios carry that bias; (2) the fuzz (dev/python/fuzz.py) at larger layers, reaching the
# tensor-core paths: 3000 cases up to 2e7 elements per tensor.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd_abba.json > $R/bench_fwd_abba.txt 2>&1; echo "bench abba exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_abba.txt
timeout 130 python3 -m convt1d.bench --budget-ms 100 --order mirrored --out $R/bench_fwd_mirr.json > $R/bench_fwd_mirr.txt 2>&1; echo "bench mirrored exit $? ($SECONDS s)"; grep -E "geomean" $R/bench_fwd_mirr.txt
python3 - "$R" <<'PY'
import json, sys
R = sys.argv[1]
a = {(r["name"], r["mode"]): r for r in json.load(open(f"{R}/bench_fwd_abba.json"))["records"]}
m = {(r["name"], r["mode"]): r for r in json.load(open(f"{R}/bench_fwd_mirr.json"))["records"]}
for k in a:
    if k in m:
        print(f"{k[0]:22s} {k[1]:11s} abba {a[k]['convt1d_ms']:.4f}/{a[k]['cudnn_ms']:.4f} {a[k]['speedup']:.2f}x  "
              f"mirrored {m[k]['convt1d_ms']:.4f}/{m[k]['cudnn_ms']:.4f} {m[k]['speedup']:.2f}x")
PY
timeout 200 python3 dev/python/fuzz.py --count 3000 --seed 1 --max-elems 20000000 --max-flops 2e10 --time-budget 170 --out $R/fuzz_big.json > $R/fuzz_big.txt 2>&1; echo "fuzz exit $? ($SECONDS s)"; grep -E "^FAIL|fuzz:" $R/fuzz_big.txt | tail -12
