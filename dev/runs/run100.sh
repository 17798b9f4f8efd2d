#!/usr/bin/env bash
# Run 100 (H200): one-phase forward, scatter pass with four 16-byte vectors per thread: the one-phase tests, sanitizer, A/B on
# KernelBench 79 (shipped / forced / off), and the stride-1 forward alone on the phase's problem.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "one_phase" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_phase.py > $R/san.txt 2>&1; echo "san exit $?"; grep -E "ERROR SUMMARY|san ok|Error" $R/san.txt | head -4
timeout 150 python3 dev/python/ab_wgmma.py --shapes kernelbench_79 --modes fp32,fp32_strict,bf16 \
  --variants shipped,phase=CONVT1D_FWD_PHASE:1,nophase=CONVT1D_FWD_PHASE:0 --out $R/ab_fwd_phase.json > $R/ab.txt 2>&1; echo "ab exit $?"; tail -4 $R/ab.txt
for m in fp32_strict bf16; do CONVT1D_FWD_PHASE=1 python3 dev/python/profile_case.py kernelbench_79 fwd $m times 2>/dev/null; done
