#!/usr/bin/env bash
# Run 445 (session 49): the model zoo (bench/zoo.json, bench/make_zoo.py): the ConvTranspose1d layers of HiFi-GAN V1 / V2,
# BigVGAN-v2, EnCodec 24 kHz and DAC 44.1 kHz at one 10 s utterance (inference) and a training batch, against cuDNN with
# library 440: the forward in the four modes on every layer, the forward with the packed-weight cache on the inference
# layers, forward+backward on the training layers. Is every real layer faster than cuDNN, or does the heuristic leave
# some slower? Before the call: bash dev/probes/build_probe.sh l440.
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
mkdir -p /tmp/l440 && xz -dc .carry/libconvt1d_l440.so.xz > /tmp/l440/libconvt1d.so
bash scripts/build_torch_op.sh /tmp/l440 > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
export CONVT1D_LIBRARY=/tmp/l440/libconvt1d.so
python3 -c "from convt1d import _ops; assert _ops.eager_op_cuda and _ops.eager_cached_op is not None, 'C++ op not loaded'" || exit 1
Z=bench/zoo.json
names() { python3 -c "import json,sys; print(','.join(c['name'] for c in json.load(open('$Z'))['suite'] if sys.argv[1] in c['tags']))" $1; }
summ() { grep -E "geomean" $1; awk '$0 ~ /x / && $1 != "geomean" {for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+x$/ && $i + 0 < 1.0) print "  below cuDNN:", $1, $2, $3, $4, $5, $i}' $1; }
timeout 200 python3 -m convt1d.bench --problems $Z --budget-ms 60 --out $R/zoo_fwd.json --plot $R/zoo_fwd.png > $R/zoo_fwd.txt 2>&1
echo "zoo fwd exit $? ($SECONDS s)"; summ $R/zoo_fwd.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 120 python3 -m convt1d.bench --problems $Z --shapes $(names infer) --weight-cache --budget-ms 60 --out $R/zoo_fwd_wcache.json \
  --plot $R/zoo_fwd_wcache.png > $R/zoo_fwd_wcache.txt 2>&1
echo "zoo fwd weight cache exit $? ($SECONDS s)"; summ $R/zoo_fwd_wcache.txt
tar -C "$OUT" -czf "$OUT/results.tgz" r
timeout 200 python3 -m convt1d.bench --problems $Z --shapes $(names train) --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd \
  --budget-ms 60 --out $R/zoo_fwd_bwd.json --plot $R/zoo_fwd_bwd.png > $R/zoo_fwd_bwd.txt 2>&1
echo "zoo fwd+bwd exit $? ($SECONDS s)"; summ $R/zoo_fwd_bwd.txt
