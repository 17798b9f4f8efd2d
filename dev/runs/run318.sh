#!/usr/bin/env bash
# Run 318 (session 29): host time of single_utterance_x8's forward by layer (dev/python/host_probe.py), fp16 and fp32.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for d in fp16 fp32; do timeout 100 python3 dev/python/host_probe.py --dtype $d 2>&1 | tee $R/host_$d.txt; done
