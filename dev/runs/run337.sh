#!/usr/bin/env bash
# Run 337 (session 31): run 336 read the side timed first faster (plain fp16 24-29 us first, 31 us last). Does an eager
# call get slower after a CUDA graph capture of these calls? single_utterance_x8, plain and cached sides repeated:
# with the graph timing between them, and without any capture.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
O=convt1d,convt1d,convt1d_cached,convt1d_cached,convt1d,cudnn,convt1d
for i in 1 2; do
  for v in "graph:" "nograph:--no-graph" "cudnnfirst:--order cudnn,convt1d,convt1d_cached,convt1d"; do
    name=${v%%:*}; flags=${v#*:}
    echo "== $name ($i)"; timeout 100 python3 dev/python/latency_probe.py --modes fp16 --no-kernels --order $O $flags --out $R/lat_${name}_$i.json 2>&1 | grep eager | sed 's/kernels.*//'
  done
done | tee $R/latency.txt
