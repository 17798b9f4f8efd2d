#!/usr/bin/env bash
# Run 340 (session 31): what single_utterance_x8's C call (~17 us of host time) is made of: host_probe with the
# register-A attempt off, the pack and transpose as two launches, a batch-0 call (checks only) and torch's own
# one-kernel launch, fp16 and TF32, twice.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for i in 1 2; do for dt in fp16 fp32; do
  echo "== $dt ($i)"; timeout 90 python3 dev/python/host_probe.py --dtype $dt 2>&1 | grep -v Warn | grep " us"
done; done | tee $R/host_probe.txt
