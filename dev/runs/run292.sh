#!/usr/bin/env bash
# Run 292 (session 26): the edge kernel with one block per 8 samples (it walked the sample groups one after another in
# each block: hifigan_up1 / upsample_x8 take two, and their edge stood 10-11 us past the forward in bf16, run 287).
# One call's timeline, the edge tests and memcheck, and the final library (5565ea0) against this one in alternating
# processes, 3 rounds.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for s in hifigan_up1 upsample_x8_bias; do for m in fp32 bf16; do
  timeout 60 python3 dev/python/profile_case.py $s fwd $m times 2>/dev/null | cut -c1-140; done; done | tee $R/kernels.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2 3; do for v in old new; do
  lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
  CONVT1D_LIBRARY=$lib timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 --shapes hifigan_up1,upsample_x8_bias \
    --modes fp32,fp16,bf16 --variants shipped --out $R/ab_lib_${v}_$i.json > $R/ab_lib_${v}_$i.txt 2>&1
  echo "$v $i ($SECONDS s): $(grep -E '^(upsample|hifigan)' $R/ab_lib_${v}_$i.txt | awk '{print $1, $2, $7}' | tr '\n' ' ')"
done; done
(cd tests/python && timeout 60 python3 -m pytest -q -p no:cacheprovider test_cuda_wgmma.py -k "rs_edge" > $R/pytest.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; tail -1 $R/pytest.txt; grep -E "^FAILED" $R/pytest.txt | head -5 | cut -c1-300)
timeout 60 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_edge.py > $R/san_edge.txt 2>&1; echo "san edge exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY|san ok|Error" $R/san_edge.txt | head -3
