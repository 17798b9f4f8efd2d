#!/usr/bin/env bash
# Run 438 (session 48): the fuzz on library 427. Its last GPU run was run 330 (library 4f7c4ba, Session 30); since then
# ordered ping-pong, the lean kernels, spare-row changes and the tile groups (Session 46) have landed. Random legal layers
# and layouts against PyTorch in float64, every gradient, random precision modes (dev/python/fuzz.py), four passes on new
# seeds: default paths; larger layers (up to 2e7 elements); the tile groups forced wherever allowed
# (CONVT1D_WGMMA_RS_RGROUP=3: the shipped rule takes them only past 25 MB of weights, which no fuzz layer reaches); the
# H200-class defaults (CONVT1D_DRAM_RICH=1: the lean kernels). Before the call: bash dev/probes/build_probe.sh cur
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/lcur && xz -dc .carry/libconvt1d_cur.so.xz > /tmp/lcur/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/lcur > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/lcur/libconvt1d.so
fz() { # name seed budget [env...] -- [fuzz args]
  local n=$1 s=$2 b=$3; shift 3
  env "$@" timeout $((b + 60)) python3 dev/python/fuzz.py --seed $s --count 5000 --time-budget $b --out $R/fuzz_$n.json \
    ${FZ_ARGS:-} > $R/fuzz_$n.txt 2>&1
  echo "fuzz $n exit $? ($SECONDS s): $(tail -1 $R/fuzz_$n.txt)"
  tar -C "$OUT" -czf "$OUT/results.tgz" r
}
fz default 48 150 CONVT1D_X=0
FZ_ARGS="--max-elems 20000000 --max-flops 2e10" fz large 49 100 CONVT1D_X=0
fz rgroup 50 70 CONVT1D_WGMMA_RS_RGROUP=3
fz dramrich 51 70 CONVT1D_DRAM_RICH=1
python3 - $R <<'PY'
import collections, glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/fuzz_*.json")):
    r = json.load(open(f))
    st = collections.Counter(x.get("status") for x in r)
    print(f.split("/")[-1], len(r), "records", dict(st))
    for x in r:
        if x.get("status") == "fail":
            print("  FAIL", json.dumps(x)[:400])
PY
