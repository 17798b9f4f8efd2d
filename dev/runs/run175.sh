#!/usr/bin/env bash
# Run 175 (session 17): test_cuda_bwd_weight_fused with the depthwise kernels off (its layer 8, C_in = groups = 1, is
# taken by the depthwise grad_weight kernel since this session: run 174's 8 failures asserted the fused kernel ran),
# then the wgmma gradient tests (stride-1 grad_input is the adjoint forward, whose 16-bit pairs rule changed) for
# as long as the device time allows.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
(cd /tmp && timeout 60 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py -k "bwd_weight_fused" > $R/pytest_fused.txt 2>&1; echo "pytest fused exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_fused.txt | tail -4)
left=$((${BUDGET:-200} - SECONDS)); echo "wgmma grad budget $left s"
(cd /tmp && timeout $left python3 -m pytest -q -x --timeout=100 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad and not forward" > $R/pytest_wg_grad.txt 2>&1; echo "pytest wg grad exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_wg_grad.txt | tail -4; tail -c 200 $R/pytest_wg_grad.txt)
