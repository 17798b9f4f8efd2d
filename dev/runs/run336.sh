#!/usr/bin/env bash
# Run 336 (session 31): why latency_probe read the cached module's eager call slower than the plain one (run 331: fp16
# 52-58 against 37 us, cuDNN's 116 after both). The probe profiled each side's kernels (torch.profiler) before timing the
# next side: does a profiler session slow the launches that follow? single_utterance_x8, fp16 and TF32: the default order
# with the kernel listing, then without it, then the sides in reverse order without it.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for i in 1 2; do
  for v in "kernels:" "nokernels:--no-kernels" "reversed:--no-kernels --order cudnn,convt1d_cached,convt1d"; do
    name=${v%%:*}; flags=${v#*:}
    echo "== $name ($i)"; timeout 90 python3 dev/python/latency_probe.py --modes fp16,fp32 $flags --out $R/lat_${name}_$i.json 2>&1 | grep eager | sed 's/kernels.*//'
  done
done | tee $R/latency.txt
