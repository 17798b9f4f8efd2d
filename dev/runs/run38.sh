#!/usr/bin/env bash
# Run 38: strided grad_input on the register-A kernel reading grad_y in place (BI mode): wgmma tests,
# sanitizer, A/B of the grad_input (RS off vs as shipped) on the strided suite shapes.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -12) | tee $R/pytest_wgmma.txt
grep -q " passed" $R/pytest_wgmma.txt && ! grep -q "failed" $R/pytest_wgmma.txt || { echo "wgmma tests failed: stop"; exit 1; }
timeout 100 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer_rs.txt 2>&1; echo "sanitizer rs exit $?"; grep -E "ERROR SUMMARY" $R/sanitizer_rs.txt
S=upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,codec_dec_s8,codec_dec_s5,kernelbench_79,single_utterance_x8
for v in 0 auto; do
  if [ $v = auto ]; then unset CONVT1D_WGMMA_RS; else export CONVT1D_WGMMA_RS=$v; fi
  timeout 150 python3 -m convt1d.bench --backward --shapes $S --modes fp32_bwd_input,fp32_strict_bwd_input,bf16_bwd_input,fp16_bwd_input --budget-ms 40 --out $R/bi_rs$v.json > $R/bi_rs$v.txt 2>&1; echo "bi rs=$v exit $?"
done
unset CONVT1D_WGMMA_RS
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
def load(f):
    d = json.load(open(f)); return {(r["name"], r["mode"]): r for r in (d["records"] if isinstance(d, dict) else d)}
a, b = load(f"{R}/bi_rs0.json"), load(f"{R}/bi_rsauto.json")
for k in a:
    if k in b and a[k].get("convt1d_ms") and b[k].get("convt1d_ms"):
        print(f"{k[0]:20s} {k[1]:22s} off {a[k]['convt1d_ms']:7.3f} rs {b[k]['convt1d_ms']:7.3f} cudnn {b[k]['cudnn_ms']:7.3f}  x_off {a[k]['cudnn_ms']/a[k]['convt1d_ms']:5.2f} x_rs {b[k]['cudnn_ms']/b[k]['convt1d_ms']:5.2f} err {b[k]['rel_err']:.1e}")
PY
