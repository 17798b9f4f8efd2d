#!/usr/bin/env bash
# Run 102 (session 12): the fused one-phase forward (fwd_phase_fused.cu): its tests and the one-phase ones, the
# sanitizer, A/B on KernelBench 79 / 79_small / 74 (shipped = fused where taken, nofused, forced incl. stride 1),
# kernel times. Library: a 90a build from this machine carried as .carry/libconvt1d.so.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "fused or one_phase" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED|Error" $R/pytest.txt | tail -8)
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san.txt | head -4
timeout 200 python3 dev/python/ab_wgmma.py --shapes kernelbench_79,kernelbench_79_small,kernelbench_74 --modes fp32,fp32_strict,fp16,bf16 \
  --variants shipped,nofused=CONVT1D_FWD_FUSED:0,forced=CONVT1D_FWD_FUSED:1 --out $R/ab_fwd_fused.json > $R/ab.txt 2>&1; echo "ab exit $?"; cat $R/ab.txt | cut -c1-330
for m in fp32 fp32_strict bf16; do python3 dev/python/profile_case.py kernelbench_79 fwd $m times 2>/dev/null; done
