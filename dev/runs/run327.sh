#!/usr/bin/env bash
# Run 327 (session 30): where single_utterance_x8's host time goes inside one library call: the CUDA runtime calls of
# the C++ op (plain and cached) with their offsets (dev/python/host_gaps.py), the host probe, and perf if it is there.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for dt in fp16 fp32; do timeout 60 python3 dev/python/host_gaps.py --dtype $dt --out $R/host_gaps_$dt.json 2>&1 | grep -v Warn | tee $R/host_gaps_$dt.txt; done
timeout 60 python3 dev/python/host_probe.py --dtype fp16 2>&1 | tee $R/host_probe.txt
command -v perf nsys; ls /usr/local/cuda*/bin 2>/dev/null | grep -i nsys
if command -v perf >/dev/null; then
  timeout 60 perf record -F 20000 -g -o /tmp/p.data python3 dev/python/host_probe.py --dtype fp16 > /dev/null 2> $R/perf_err.txt
  perf report -i /tmp/p.data --stdio --no-children --sort dso,sym 2>/dev/null | grep -v "^$" | head -120 > $R/perf.txt; head -60 $R/perf.txt
fi
