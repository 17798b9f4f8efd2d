#!/usr/bin/env bash
# Run 32: repeat of the forward on upsample_x8_bias / hifigan_up1 / codec_dec_s8 in fp16 and bf16, twice,
# to see whether run 31's upsample_x8 bf16 2.10 ms (fp16 1.71) reproduces.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
for i in 1 2; do
  timeout 100 python3 -m convt1d.bench --shapes upsample_x8_bias,hifigan_up1,codec_dec_s8 --modes fp16,bf16 --budget-ms 150 --out $R/fwd16_$i.json > $R/fwd16_$i.txt 2>&1
  python3 -c "
import json; d=json.load(open('$R/fwd16_$i.json'))
for r in d['records']: print('$i', r['name'], r['mode'], round(r['convt1d_ms'],3), round(r['cudnn_ms'],3), round(r['speedup'],2))"
done
