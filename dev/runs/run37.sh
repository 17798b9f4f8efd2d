#!/usr/bin/env bash
# Run 37: RS forward with the vectorized epilogue (per-warp shared-memory transpose, 16/8-byte stores),
# cp.async staging on by default for fp32, debug hook removed: wgmma tests, then the forward on the
# shapes the RS kernel takes and the KernelBench grad_input.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -3) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
S=kernelbench_64,kernelbench_74,kernelbench_79,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,upsample_x8_bias,codec_dec_s8,codec_dec_s5
timeout 150 python3 -m convt1d.bench --shapes $S --budget-ms 50 --out $R/fwd.json > $R/fwd.txt 2>&1; echo "fwd exit $?"; grep -E "^(kernel|hifi|upsa|codec)" $R/fwd.txt | awk '{print $1, $2, $3, $4, $5, $7}'
timeout 100 python3 -m convt1d.bench --backward --shapes kernelbench_64,kernelbench_74,kernelbench_79 --modes fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input --budget-ms 50 --out $R/bwd_in.json > $R/bwd_in.txt 2>&1; echo "bwd exit $?"; grep -E "^kernel" $R/bwd_in.txt | awk '{print $1, $2, $3, $4, $5}'
