#!/usr/bin/env bash
# Run 17: bisect the TMA illegal instruction of runs 15/16 (which copy, negative coordinates, maps in
# parameter vs global memory), each variant under compute-sanitizer. Needs CONVT1D_LIBRARY; writes $OUT.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
cat > /tmp/smoke.py <<'PY'
import torch, convt1d, torch.nn.functional as F
for (N, ci, co, K, L, s, p, d) in [(2, 128, 128, 3, 2048, 1, 0, 1), (2, 32, 64, 3, 4096, 2, 1, 2)]:
    x = torch.randn(N, ci, L, device="cuda", dtype=torch.bfloat16); w = torch.randn(ci, co, K, device="cuda", dtype=torch.bfloat16)
    y = convt1d.conv_transpose1d(x, w, stride=s, padding=p, dilation=d); torch.cuda.synchronize()
    r = F.conv_transpose1d(x.double(), w.double(), stride=s, padding=p, dilation=d)
    print("smoke", ci, co, s, "rel err %.3e" % ((y.double() - r).abs().max() / r.abs().max()).item(), "finite", torch.isfinite(y).all().item())
PY
for v in "CONVT1D_WG_DEBUG=0" "CONVT1D_WG_DEBUG=3" "CONVT1D_WG_DEBUG=4" "CONVT1D_WG_DEBUG=5" "CONVT1D_WG_GMAPS=1" "CONVT1D_WG_GMAPS=1 CONVT1D_WG_DEBUG=3" "CONVT1D_WG_GMAPS=1 CONVT1D_WG_DEBUG=4"; do
  echo "== variant [$v]"
  timeout 45 env $v compute-sanitizer --print-limit 1 python3 /tmp/smoke.py > $R/san.txt 2>&1
  grep -E "^smoke|=====  *(Illegal|Invalid|Out|Misaligned|Error)|=====     at|by thread|ERROR SUMMARY" $R/san.txt | head -6
done
