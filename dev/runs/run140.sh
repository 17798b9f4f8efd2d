#!/usr/bin/env bash
# Run 140 (session 15): where a latency shape's training step spends host time, both sides (torch.profiler CPU
# events per step, autograd nodes on the device thread included), after the eager backward stopped re-validating
# (ctx keeps the forward's Params); the latency rows of the bench (fwd and fwd+bwd); the autograd tests on CUDA.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_autograd.py $OLDPWD/tests/python/test_cuda.py -k "grad or backward or autograd or non_contig" > $R/pytest.txt 2>&1; echo "pytest exit $?"; grep -E "passed|failed|^FAILED" $R/pytest.txt | tail -6)
for sm in "kernelbench_64_small fp32" "kernelbench_74_small fp32_strict" "kernelbench_79_small fp32_strict"; do
  timeout 90 python3 dev/python/profile_step_host.py $sm 200 >> $R/step_host.txt 2>&1; done; grep -E "^==" $R/step_host.txt
timeout 200 python3 -m convt1d.bench --backward --shapes kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8 \
  --modes fp32,fp32_strict,bf16,fp32_fwd_bwd,fp32_strict_fwd_bwd,bf16_fwd_bwd --out $R/latency.json > $R/latency.txt 2>&1; echo "bench exit $?"; grep -E "small|single" $R/latency.txt | cut -c1-150
