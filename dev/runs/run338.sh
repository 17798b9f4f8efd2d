#!/usr/bin/env bash
# Run 338 (session 31): run 337 read the cached module's eager fp16 call 3-5 us slower than the plain one in every order,
# with or without graph captures. Host time by layer (host_probe: 40 calls issued after a synchronization, the GPU
# queue absorbing them), fp16 and TF32, three times, to see whether the host or the GPU side holds the cached call.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for i in 1 2 3; do for dt in fp16 fp32; do
  echo "== $dt ($i)"; timeout 60 python3 dev/python/host_probe.py --dtype $dt 2>&1 | grep -v Warn | grep " us"
done; done | tee $R/host_probe.txt
