#!/usr/bin/env bash
# Run 269 (session 25): half rows (fwd_wgmma_rs_kernel KR = 64: chunks of 16 channels, two 41 KB stages) let
# KernelBench 64's TF32 joint staged tile fit (130 KB beside two 82 KB full stages does not); and an L2 prefetch of the
# input boxes l2pf stages ahead (CONVT1D_WGMMA_RS_L2PF, experiment). Tests of both, memcheck, the fuzz on the GPU,
# A/B (rotated ABBA) of the variants, and the previous library (.carry/libconvt1d_old.so.xz, 918310d) against the new
# in alternating processes on layers the producer's change touches.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py \
   -k "half_rows or rshalf or rs_taken or (test_wgmma_forward and heuristic)" > $R/pytest_half.txt 2>&1; echo "pytest exit $? ($SECONDS s)"; grep -E "passed|failed|^FAILED" $R/pytest_half.txt | tail -8)
CONVT1D_WGMMA_RS_HALF=1 CONVT1D_WGMMA_RS_L2PF=2 SAN_CASES=kb64ish,grouped_rows,odd_rows SAN_TILES=auto,staged,direct \
  timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/san_half.txt 2>&1; echo "san exit $? ($SECONDS s)"; grep -E "ERROR SUMMARY" $R/san_half.txt
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes kernelbench_64 --modes fp32 \
  --variants shipped,full=CONVT1D_WGMMA_RS_HALF:0,fullpf1=CONVT1D_WGMMA_RS_HALF:0+CONVT1D_WGMMA_RS_L2PF:1,fullpf2=CONVT1D_WGMMA_RS_HALF:0+CONVT1D_WGMMA_RS_L2PF:2,halfpf2=CONVT1D_WGMMA_RS_L2PF:2,halfpf4=CONVT1D_WGMMA_RS_L2PF:4 \
  --out $R/ab_kb64.json > $R/ab_kb64.txt 2>&1; echo "ab kb64 exit $? ($SECONDS s)"; cat $R/ab_kb64.txt | tail -12
timeout 100 python3 dev/python/ab_wgmma.py --budget-ms 40 --order rotate --shapes kernelbench_74,hifigan_up3,kernelbench_64 --modes fp32,bf16 \
  --variants shipped,pf1=CONVT1D_WGMMA_RS_L2PF:1,pf2=CONVT1D_WGMMA_RS_L2PF:2 \
  --out $R/ab_pf.json > $R/ab_pf.txt 2>&1; echo "ab pf exit $? ($SECONDS s)"; cat $R/ab_pf.txt | tail -14
timeout 110 python3 dev/python/fuzz.py --count 400 --time-budget 80 --out $R/fuzz.json > $R/fuzz.txt 2>&1; echo "fuzz exit $? ($SECONDS s)"; tail -5 $R/fuzz.txt
xz -d -c .carry/libconvt1d_old.so.xz > /tmp/libconvt1d_old.so
for i in 1 2; do
  for v in old new; do
    lib=$PWD/.carry/libconvt1d.so; [ $v = old ] && lib=/tmp/libconvt1d_old.so
    CONVT1D_LIBRARY=$lib timeout 60 python3 dev/python/ab_wgmma.py --budget-ms 40 --shapes kernelbench_64,kernelbench_74,upsample_x8_bias,hifigan_up3 \
      --modes fp32,bf16 --variants shipped --out $R/ab_${v}_$i.json > $R/ab_${v}_$i.txt 2>&1; echo "$v $i exit $? ($SECONDS s)"
  done
done
python3 - "$R" <<'PY'
import json, sys, glob, statistics as st
R = sys.argv[1]
rows = {}
for f in sorted(glob.glob(f"{R}/ab_old_*.json") + glob.glob(f"{R}/ab_new_*.json")):
    v = f.split("/")[-1].split("_")[1]
    d = json.load(open(f))
    for r in (d["records"] if isinstance(d, dict) and "records" in d else d if isinstance(d, list) else [d]):
        rows.setdefault((r["name"], r["mode"]), {}).setdefault(v, []).append((r["shipped_ms"], r["cudnn_ms"]))
for k, vs in rows.items():
    o, n = vs.get("old", []), vs.get("new", [])
    mo, mn = st.mean(t for t, _ in o), st.mean(t for t, _ in n)
    print(f"{k[0]:20s} {k[1]:5s} old {mo:.4f} new {mn:.4f} ms  new/old {mn / mo:.3f}  cudnn {st.mean(c for _, c in o + n):.4f}")
PY
