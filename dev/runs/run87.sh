#!/usr/bin/env bash
# Run 87: the one-call backward (convt1d_backward_cuda) and the leaner eager path: C CUDA self-test,
# the CUDA/autograd pytest files, the host profile, and the latency shapes in the bench (all modes).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
FORCE_LIB=1 LIB=$CONVT1D_LIBRARY BUILD=/tmp/ctest timeout 200 bash tests/cuda/build_and_run.sh --no-large > $R/ctest.txt 2>&1; echo "ctest exit $?"; grep -iE "passed|failed|FAIL" $R/ctest.txt | tail -5
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda.py $OLDPWD/tests/python/test_autograd.py > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
for sm in "kernelbench_64_small fp32" "kernelbench_74_small fp32_strict" "single_utterance_x8 bf16"; do
  timeout 60 python3 dev/python/host_profile.py $sm 2>&1 | grep -E "step|C |py |aten" >> $R/host.txt; done
cat $R/host.txt
timeout 200 python3 -m convt1d.bench --backward --shapes kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8 --modes fp32,fp32_strict,fp16,bf16,fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd --out $R/bench_lat.json > $R/bench_lat.txt 2>&1; echo "bench exit $?"; grep -vE "^\s*$" $R/bench_lat.txt | tail -40
