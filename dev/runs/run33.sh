#!/usr/bin/env bash
# Run 33: the register-A wgmma forward (fwd_wgmma_rs_kernel: x read in place, persistent, setmaxnreg
# producer warpgroup). wgmma tests (RS forced, every tile), sanitizer, then A/B timing of the forward with
# the RS kernel off / forced on the memory-bound and the compute-bound layers, and KB fwd+bwd as shipped.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "rs or adjoint" 2>&1 | tail -15) | tee $R/pytest_rs.txt
timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_fwd_rs.py > $R/sanitizer.txt 2>&1; echo "sanitizer exit $?"; grep -E "ERROR SUMMARY|kb64ish .*float32 False auto|kb79ish .*bfloat16 True auto" $R/sanitizer.txt | head -5
S=kernelbench_64,kernelbench_74,kernelbench_79,hifigan_up3,hifigan_up4,codec_dec_s8,upsample_x8_bias
for v in 0 1; do
  CONVT1D_WGMMA_RS=$v timeout 150 python3 -m convt1d.bench --shapes $S --budget-ms 50 --out $R/ab_rs$v.json > $R/ab_rs$v.txt 2>&1; echo "ab rs=$v exit $?"
done
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
def load(f):
    d = json.load(open(f)); return {(r["name"], r["mode"]): r for r in (d["records"] if isinstance(d, dict) else d)}
a, b = load(f"{R}/ab_rs0.json"), load(f"{R}/ab_rs1.json")
print(f"{'shape':18s} {'mode':12s} {'off':>8s} {'rs':>8s} {'cudnn':>8s} {'x_off':>6s} {'x_rs':>6s} {'err_rs':>8s} {'%bw_rs':>6s}")
for k in a:
    if k in b and a[k].get("convt1d_ms") and b[k].get("convt1d_ms"):
        print(f"{k[0]:18s} {k[1]:12s} {a[k]['convt1d_ms']:8.3f} {b[k]['convt1d_ms']:8.3f} {b[k]['cudnn_ms']:8.3f} {a[k]['cudnn_ms']/a[k]['convt1d_ms']:6.2f} {b[k]['cudnn_ms']/b[k]['convt1d_ms']:6.2f} {b[k]['rel_err']:8.1e} {b[k].get('pct_copy_bw',0):6.0f}")
PY
timeout 120 python3 -m convt1d.bench --backward --shapes kernelbench_64,kernelbench_74,kernelbench_79 --modes fp32_fwd_bwd,fp32_bwd_input,bf16_fwd_bwd,bf16_bwd_input --budget-ms 50 --out $R/kb_bwd.json > $R/kb_bwd.txt 2>&1; echo "kb bwd exit $?"; grep -E "kernelbench" $R/kb_bwd.txt | head -20
