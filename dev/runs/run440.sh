#!/usr/bin/env bash
# Run 440 (session 48): library 440 = library 427 + tiny float32 layers (under 2^24 multiply-adds) computed
# fp32-accurate with TF32 allowed (src/cuda/api.cu, tiny_fp32; CONVT1D_TINY_FP32=0 keeps TF32). Host code only.
# 1. test_cuda.py + test_autograd.py (conftest.py keeps TF32 on tiny layers; the new test_cuda_tiny_* turn the rule on).
# 2. The latency rows, rule on / off in alternating processes, 2 rounds: forward and forward+backward, fp32 (TF32
#    allowed) beside fp32_strict: what the rule costs where it applies.
# 3. The fuzz with the shipped default (rule on), a new seed.
# Before the call: bash dev/probes/build_probe.sh tiny
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/ltiny && xz -dc .carry/libconvt1d_tiny.so.xz > /tmp/ltiny/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/ltiny > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/ltiny/libconvt1d.so
(cd tests/python && timeout 150 python3 -m pytest -q -p no:cacheprovider test_cuda.py test_autograd.py > $R/tests_cuda.txt 2>&1
 echo "cuda+autograd tests exit $? ($SECONDS s)"; grep -E "^FAILED" $R/tests_cuda.txt | head -8 | cut -c1-250; tail -n 1 $R/tests_cuda.txt)
tar -C "$OUT" -czf "$OUT/results.tgz" r
S=kernelbench_64_small,kernelbench_74_small,kernelbench_79_small
for i in 1 2; do for v in 1 0; do
  CONVT1D_TINY_FP32=$v timeout 60 python3 -m convt1d.bench --shapes $S --backward --budget-ms 50 \
    --modes fp32,fp32_strict,fp32_fwd_bwd,fp32_strict_fwd_bwd --out $R/lat_tiny${v}_$i.json > $R/lat_tiny${v}_$i.txt 2>&1
  echo "tiny=$v round $i exit $? ($SECONDS s)"
  grep -E "^kernelbench" $R/lat_tiny${v}_$i.txt | awk '{print "  ", $1, $3, $4, $5, $6, $(NF-1), $NF}'
done; done
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 120 python3 dev/python/fuzz.py --seed 53 --count 5000 --time-budget 60 --out $R/fuzz_53.json > $R/fuzz_53.txt 2>&1
echo "fuzz 53 exit $? ($SECONDS s): $(tail -1 $R/fuzz_53.txt)"; grep FAIL $R/fuzz_53.txt | head -3 | cut -c1-300
