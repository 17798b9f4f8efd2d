#!/usr/bin/env bash
# Run 16: the wgmma forward hit "illegal instruction" in run 15. Bisect (no MMAs / no TMA / a full
# producer warpgroup), locate it with compute-sanitizer, dump the SASS; then, with the first variant
# that works, the tests and the fp16/bf16 A/B. Needs CONVT1D_LIBRARY; writes $OUT.
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
ok=""
for v in "" "CONVT1D_WG_PWG=1" "CONVT1D_WG_DEBUG=1" "CONVT1D_WG_DEBUG=2" "CONVT1D_WG_PWG=1 CONVT1D_WG_DEBUG=1"; do
  echo "== variant [$v]"; timeout 40 env $v python3 /tmp/smoke.py 2>&1 | grep -E "smoke|Error|error" | head -3
  if [ -z "$ok" ] && [ "${PIPESTATUS[0]}" = 0 ]; then :; fi
done
timeout 60 compute-sanitizer --print-limit 5 python3 /tmp/smoke.py > $R/sanitizer.txt 2>&1; grep -E "=====" $R/sanitizer.txt | head -20
cuobjdump -sass -fun fwd_wgmma_kernel $CONVT1D_LIBRARY > $R/sass_all.txt 2>&1 || cuobjdump -sass $CONVT1D_LIBRARY 2>/dev/null | awk '/Function : .*fwd_wgmma_kernel/{p=1} /Function : /&&!/fwd_wgmma/{p=0} p' > $R/sass_all.txt
wc -l $R/sass_all.txt
for v in "" "CONVT1D_WG_PWG=1"; do
  if timeout 40 env $v python3 /tmp/smoke.py > /tmp/s.txt 2>&1 && grep -q "finite True" /tmp/s.txt; then
    echo "== tests and A/B with [$v]"
    timeout 150 env $v python3 -m pytest -q -x --timeout=60 -p no:cacheprovider tests/python/test_cuda_wgmma.py 2>&1 | tail -15
    S=kernelbench_64,kernelbench_74,kernelbench_79,upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,codec_dec_s8
    timeout 150 env $v python3 -m convt1d.bench --shapes $S --modes fp16,bf16 --budget-ms 100 --out $R/ab_wgmma1.json > $R/ab_wgmma1.txt 2>&1
    echo "bench exit $?"; grep -E "^(kernelbench|upsample|hifigan|codec)" $R/ab_wgmma1.txt
    break
  fi
done
