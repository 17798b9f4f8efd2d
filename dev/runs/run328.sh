#!/usr/bin/env bash
# Run 328 (session 30): batch-1 single_utterance_x8 on the register-A kernel with its input staged by one bulk copy per
# row (x rows of 1722 bytes: no TMA), which the heuristic declines below a tile per SM (run 72), against the shipped SS
# kernel (x transposed first: one launch more). Eager and graph-replay times of the module, plain and cached, per
# setting in its own process (dev/python/latency_probe.py), and the settings' errors and times side by side (ab_wgmma).
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
[ -f .carry/libconvt1d.so ] || xz -dc .carry/libconvt1d.so.xz > .carry/libconvt1d.so
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $? ($SECONDS s)"
for v in "shipped" "rsbulk256x1 CONVT1D_WGMMA_RS=1 CONVT1D_WGMMA_RS_BULK=1" "rsbulk128x1 CONVT1D_WGMMA_RS=1 CONVT1D_WGMMA_RS_BULK=1 CONVT1D_WGMMA_RS_TILE=128x1" \
         "rsbulk128x2 CONVT1D_WGMMA_RS=1 CONVT1D_WGMMA_RS_BULK=1 CONVT1D_WGMMA_RS_TILE=128x2" "rsbulk64x2 CONVT1D_WGMMA_RS=1 CONVT1D_WGMMA_RS_BULK=1 CONVT1D_WGMMA_RS_TILE=64x2" "shipped"; do
  set -- $v; name=$1; shift
  echo "== $name"; env "$@" timeout 90 python3 dev/python/latency_probe.py --modes fp16,fp32 --out $R/lat_$name.json 2>&1 | grep -E "eager" | sed 's/kernels.*//'
done | tee $R/latency.txt
timeout 150 python3 dev/python/ab_wgmma.py --shapes single_utterance_x8 --modes fp16,bf16,fp32,fp32_strict --order rotate --budget-ms 30 \
  --variants shipped,rsbulk256x1=CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_BULK:1,rsbulk128x1=CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_BULK:1+CONVT1D_WGMMA_RS_TILE:128x1,rsbulk64x2=CONVT1D_WGMMA_RS:1+CONVT1D_WGMMA_RS_BULK:1+CONVT1D_WGMMA_RS_TILE:64x2 \
  --out $R/ab_su_bulk.json > $R/ab_su_bulk.txt 2>&1; echo "ab exit $? ($SECONDS s)"; cat $R/ab_su_bulk.txt | tr '|' '\n' | grep -v "^$" | tail -24
for dt in fp16 fp32; do CONVT1D_WGMMA_RS=1 CONVT1D_WGMMA_RS_BULK=1 CONVT1D_WGMMA_RS_TILE=128x1 timeout 60 python3 dev/python/profile_case.py single_utterance_x8 fwd $dt times 2>&1 | grep -v Warn | sed 's/void (anonymous namespace):://; s/(CUtensorMap.*//' | cut -c1-140; done
