#!/usr/bin/env bash
# Run 71: review at stop: host helpers folded (sm90a_built, pick_splits; device PTX identical). The tests
# that assert which kernel runs (forward, grad_input, both grad_weights) and every grad_weight test.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "taken or grad_weight" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^E " $R/pytest.txt | tail -4)
