#!/usr/bin/env bash
# Run 99 (H200): review at stop: the one-phase decomposition folded into one helper (one_phase_problem,
# kernels.cuh) for the forward and the grad_weight; same behaviour: their tests and sanitizer targets.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 120 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py $OLDPWD/tests/python/test_cuda.py -k "one_phase or rs_taken or one_call" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
for t in san_fwd_phase san_bw_phase; do timeout 100 compute-sanitizer --tool memcheck python3 dev/python/$t.py > $R/$t.txt 2>&1; echo "$t exit $?"; grep -E "ERROR SUMMARY|san ok" $R/$t.txt | head -2; done
