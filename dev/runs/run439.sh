#!/usr/bin/env bash
# Run 439 (session 48): the fuzz's TF32 criterion after run 438. Run 438's one failure (seed 51, case 151: C_in 119,
# C_out 1, K 4, L 4, padding 3, one output of 476 terms, TF32 mode; y 1.2e-2 of |y|, cuDNN 1.6e-6 having computed it in
# fp32) is TF32's rounding where the terms cancel. dev/python/fuzz.py now accepts y / grad_x beyond 5e-3 of max |r| in
# that mode when every element is within 8 standard deviations of TF32's rounding error (helpers.tf32_within_bound).
# That case again (it must pass by the bound), then the H200-class pass of run 438 again (seed 51) and a new seed.
# Before the call: bash dev/probes/build_probe.sh cur
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lcur && xz -dc .carry/libconvt1d_cur.so.xz > /tmp/lcur/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lcur/libconvt1d.so
CONVT1D_DRAM_RICH=1 python3 dev/python/fuzz.py --seed 51 --case 151 --modes fp32 --out $R/fuzz_case151.json > $R/fuzz_case151.txt 2>&1
echo "case 151 exit $?: $(tail -1 $R/fuzz_case151.txt)"
python3 -c "import json; r = json.load(open('$R/fuzz_case151.json')); print([(x['status'], x['errors'], x.get('tf32_bound')) for x in r])"
fz() { # name seed budget [env...]
  local n=$1 s=$2 b=$3; shift 3
  env "$@" timeout $((b + 60)) python3 dev/python/fuzz.py --seed $s --count 5000 --time-budget $b --out $R/fuzz_$n.json \
    > $R/fuzz_$n.txt 2>&1
  echo "fuzz $n exit $? ($SECONDS s): $(tail -1 $R/fuzz_$n.txt)"
  tar -C "$OUT" -czf "$OUT/results.tgz" r
}
fz dramrich 51 70 CONVT1D_DRAM_RICH=1
fz default52 52 100 CONVT1D_X=0
python3 - $R <<'PY'
import collections, glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/fuzz_*.json")):
    r = json.load(open(f))
    print(f.split("/")[-1], len(r), "records", dict(collections.Counter(x.get("status") for x in r)))
    for x in r:
        if x.get("status") == "fail" or "tf32_bound" in x:
            print("  ", x["status"], x["case"], x["mode"], x["config"], x["errors"], x.get("tf32_bound"), x.get("torch_errors"))
PY
