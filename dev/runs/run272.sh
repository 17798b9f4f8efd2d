#!/usr/bin/env bash
# Run 272 (session 25): the fixes for run 271's fuzz findings: split-TF32 grad_input (bwd_input_tc_kernel) sums each
# chunk in fresh registers; 16-bit grad_weight (bwd_weight_tc_kernel) pipelines grad_y only where it is 4-byte aligned.
# test_cuda.py (new: test_cuda_grads_fuzz_layers) + test_autograd.py, memcheck of the two misaligned cases, the fuzz
# (seed 1 at large layers from the start, seed 3 at the default sizes), and strict grad_input / 16-bit grad_weight of
# the suite, previous library (.carry/libconvt1d_old.so.xz) against the new one.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -8)
F="dev/python/fuzz.py --seed 1 --max-elems 20000000 --max-flops 2e10"
for c in 364 852; do timeout 60 compute-sanitizer --tool memcheck python3 $F --case $c > $R/san_$c.txt 2>&1; echo "san $c exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|fuzz: [0-9]" $R/san_$c.txt; done
timeout 200 python3 $F --count 3000 --time-budget 180 --out $R/fuzz_s1.json > $R/fuzz_s1.txt 2>&1; echo "fuzz s1 exit $? ($SECONDS s)"; grep -E "^FAIL|fuzz: [0-9]|budget" $R/fuzz_s1.txt | tail -8
timeout 80 python3 dev/python/fuzz.py --seed 3 --count 3000 --time-budget 60 --out $R/fuzz_s3.json > $R/fuzz_s3.txt 2>&1; echo "fuzz s3 exit $? ($SECONDS s)"; grep -E "^FAIL|fuzz: [0-9]|budget" $R/fuzz_s3.txt | tail -8
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 100 python3 -m convt1d.bench --backward --modes fp32_strict_bwd_input,bf16_bwd_weight --budget-ms 40 \
    --out $R/bench_bwd_$v.json > $R/bench_bwd_$v.txt 2>&1; echo "bench $v exit $? ($SECONDS s)"; grep geomean $R/bench_bwd_$v.txt
done
python3 - "$R" <<'PY'
import json, sys
R = sys.argv[1]
o = {(r["name"], r["mode"]): r for r in json.load(open(f"{R}/bench_bwd_old.json"))["records"]}
n = {(r["name"], r["mode"]): r for r in json.load(open(f"{R}/bench_bwd_new.json"))["records"]}
for k in o:
    if k in n:
        print(f"{k[0]:24s} {k[1]:24s} old {o[k]['convt1d_ms']:.4f} ({o[k]['speedup']:.2f}x, err {o[k]['rel_err']:.1e})  "
              f"new {n[k]['convt1d_ms']:.4f} ({n[k]['speedup']:.2f}x, err {n[k]['rel_err']:.1e})  new/old {n[k]['convt1d_ms'] / o[k]['convt1d_ms']:.3f}")
PY
