#!/usr/bin/env bash
# Run 60: one mbar_wait (with the suspend-time hint) for every Hopper kernel: the SS forward and the wgmma
# grad_weight now sleep in their waits too. The whole wgmma test file, the grad_weight sanitizer target, and
# the SS / grad_weight shapes timed against run 58 (codec_dec_s8 strict forward, upsample_x8 grad_weight).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 240 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | grep -E "passed|failed|Error|assert" | tail -12) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
timeout 70 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight.py > $R/sanitizer_bw.txt 2>&1; echo "sanitizer bw exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_bw.txt
timeout 100 python3 -m convt1d.bench --backward --shapes codec_dec_s8,upsample_x8_bias,hifigan_up1,kernelbench_64 --modes fp32_strict,bf16,fp32_bwd_weight,bf16_bwd_weight,fp32_strict_bwd_weight --budget-ms 40 --out $R/sanity.json > $R/sanity.txt 2>&1; echo "sanity exit $?"
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
new = {(r["name"], r["mode"]): r for r in json.load(open(f"{R}/sanity.json"))["records"] if r.get("convt1d_ms")}
old = {}
for f in ("bench/results/h200_fwd.json", "bench/results/h200_fwd_bwd.json"):
    old.update({(r["name"], r["mode"]): r for r in json.load(open(f))["records"] if r.get("convt1d_ms")})
for k, r in new.items():
    o = old.get(k)
    print(f"{k[0]:18s} {k[1]:24s} now {r['convt1d_ms']:7.3f} ({r['speedup']:.2f}x)  run 58 {o['convt1d_ms'] if o else float('nan'):7.3f}")
PY
