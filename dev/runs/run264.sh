#!/usr/bin/env bash
# Run 264 (session 24): run 263 read KernelBench 74 TF32 at 0.699 ms (3.02x) where runs 244-258 read 0.664-0.670: the
# register-A kernels' row strides per sample (WgArgs::xn / yn, for the grouped views) changed their code for every
# layer. The library before them (session 23's source: .carry/libconvt1d_old.so.xz) and the new one in alternating
# processes, three each, on layers of each epilogue form (joint staged, direct, pairs, phase-merged).
set -u
export PYTHONPATH=$PWD/python CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2 3; do
  for v in old new; do
    lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
    CONVT1D_LIBRARY=$lib timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 --shapes kernelbench_74,kernelbench_64,upsample_x8_bias,hifigan_up3 \
      --modes fp32,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1; echo "$v $i exit $? ($SECONDS s)"
  done
done
python3 - "$R" <<'PY'
import json, sys, glob, statistics as st
R = sys.argv[1]
rows = {}
for f in sorted(glob.glob(f"{R}/ab_*_*.json")):
    v = f.split("/")[-1].split("_")[1]
    d = json.load(open(f))
    for r in (d["records"] if isinstance(d, dict) and "records" in d else d if isinstance(d, list) else [d]):
        rows.setdefault((r["name"], r["mode"]), {}).setdefault(v, []).append((r["shipped_ms"], r["cudnn_ms"]))
for k, vs in rows.items():
    o, n = vs.get("old", []), vs.get("new", [])
    mo, mn = st.mean(t for t, _ in o), st.mean(t for t, _ in n)
    print(f"{k[0]:20s} {k[1]:5s} old {mo:.4f} new {mn:.4f} ms  new/old {mn / mo:.3f}  cudnn {st.mean(c for _, c in o + n):.4f}")
PY
