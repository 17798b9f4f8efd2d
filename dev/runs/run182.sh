#!/usr/bin/env bash
# Run 182 (session 18): the register-A forward's k-step offsets (kofs) changed for every layer: the wgmma forward,
# edge, pairs and unaligned-input tests on the final library, as much as the time allows.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 250 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "test_wgmma_forward or rs_edge or unaligned_input or rs_pairs or rs_taken" > $R/pytest_fwd.txt 2>&1; echo "pytest fwd exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED|Timeout" $R/pytest_fwd.txt | tail -8)
