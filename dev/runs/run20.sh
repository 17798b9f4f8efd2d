#!/usr/bin/env bash
# Run 20: the wgmma forward with its dispatch heuristic: CUDA pytest (incl. test_cuda_wgmma forced and
# heuristic), the whole forward suite (bench_fwd.json/png), and an fp16/bf16 A/B with it off.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 240 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python -k "cuda" 2>&1 | tail -6) | tee $R/pytest_cuda.txt
timeout 220 python3 -m convt1d.bench --budget-ms 150 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean|^(upsample|hifigan_up1|codec_dec_s8|kernelbench_(64|74|79)) " $R/bench_fwd.txt
S=upsample_x8_bias,hifigan_up1,codec_dec_s8,hifigan_up2
timeout 90 env CONVT1D_WGMMA=0 python3 -m convt1d.bench --shapes $S --modes fp16,bf16 --budget-ms 100 --out $R/ab_wgmma_off.json > $R/ab_off.txt 2>&1; echo "== off"; grep -E "^(upsample|hifigan|codec)" $R/ab_off.txt
