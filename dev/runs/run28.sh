#!/usr/bin/env bash
# Run 28: host-only refactor check (one q_tile_count()): the wgmma tests and the shipped picks' timings.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -3) | tee $R/pytest_wgmma.txt
timeout 120 python3 dev/python/ab_wgmma.py --shapes upsample_x8_bias,codec_dec_s8,single_utterance_x8 --modes fp32,fp16 --variants shipped --out $R/ab_shipped.json 2>&1 | tee $R/ab.txt | cut -c1-200
