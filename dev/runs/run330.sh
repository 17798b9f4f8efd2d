#!/usr/bin/env bash
# Run 330 (session 30, the final library 4f7c4ba): the fuzz (random legal layers and layouts against PyTorch in
# float64, every gradient, random precision modes) on the GPU, where most layers take the new weight pack.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
timeout 300 python3 dev/python/fuzz.py --seed 30 --count 2000 --time-budget 230 --out $R/fuzz.json > $R/fuzz.txt 2>&1; echo "fuzz exit $? ($SECONDS s)"; tail -5 $R/fuzz.txt
python3 -c "
import json; r=json.load(open('$R/fuzz.json')); f=[x for x in r if x.get('status')=='fail' or x.get('ok') is False]
print(len(r), 'records,', len(f), 'failed'); import collections
print(collections.Counter(x.get('mode') for x in r))"
