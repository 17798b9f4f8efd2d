#!/usr/bin/env bash
# Run 105 (session 12): fused one-phase forward with bulk-copy row stores on sm_90 (A/B against vector stores),
# cheap row-offset math, 16-bit A fragments cut to 8 k-steps: its tests and the one-phase ones, the sanitizer, the
# parts-left-out probe, A/B on KernelBench 79 / 79_small / 74.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "fused or one_phase" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED|Error" $R/pytest.txt | tail -12)
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_fused.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san.txt | head -4
PROBE_VARIANTS=dbg=0,bulk=0,dbg=1,dbg=6,dbg=7 timeout 120 python3 dev/python/fused_probe.py kernelbench_79:fp32 kernelbench_79:fp32_strict kernelbench_79:bf16 2>&1 | tee $R/probe.txt
timeout 150 python3 dev/python/ab_wgmma.py --shapes kernelbench_79,kernelbench_79_small --modes fp32,fp32_strict,fp16,bf16 \
  --variants shipped,nofused=CONVT1D_FWD_FUSED:0,nobulk=CONVT1D_FUSED_BULK:0 --out $R/ab_fwd_fused.json > $R/ab.txt 2>&1; echo "ab exit $?"; cat $R/ab.txt | cut -c1-330
