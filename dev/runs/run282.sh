#!/usr/bin/env bash
# Run 282 (session 26): the grad_input rows below cuDNN (run 275: codec_dec_s5 bf16 0.80x, hifigan_up1 bf16 0.94x,
# codec_dec_s5 TF32 0.99x). Which of the library's grad_input paths is fastest there: the register-A kernel reading
# grad_y in place (shipped; its 256x1 tile, or 128x1 / 128x2 forced), the SS wgmma kernel on phase planes
# (CONVT1D_WGMMA_RS=0), the mma.sync kernel (CONVT1D_BWD_INPUT=tc), the planes path (=planes). Rotated ABBA, one process.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 300 python3 dev/python/ab_wgmma.py --kind bwd_input --budget-ms 30 --order rotate --shapes codec_dec_s5,hifigan_up1 --modes bf16,fp16,fp32 \
  --variants shipped,ss=CONVT1D_WGMMA_RS:0,tc=CONVT1D_BWD_INPUT:tc,planes=CONVT1D_BWD_INPUT:planes,t128x1=CONVT1D_WGMMA_RS_TILE:128x1,t128x2=CONVT1D_WGMMA_RS_TILE:128x2 \
  --out $R/ab_bi.json > $R/ab_bi.txt 2>&1; echo "ab exit $? ($SECONDS s)"
python3 - $R/ab_bi.json <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["records"]:
    vs = [k[:-3] for k in r if k.endswith("_ms") and k != "cudnn_ms"]
    print(f"{r['name']:14s} {r['mode']:5s} cudnn {r['cudnn_ms']:.3f} " + " ".join(f"{v} {r[v + '_ms']:.3f} (err {r[v + '_err']:.1e})" for v in vs))
P
