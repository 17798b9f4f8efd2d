#!/usr/bin/env bash
# Run 31: vectorized pre-pass kernels (planes, shifted copies, planes-transpose, the forward's input
# transpose) and equal batch chunks: sanitizer, wgmma tests, pytest -k cuda, the forward suite, the
# forward+backward suite, KernelBench evaluation (the session's committed results if all pass).
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
timeout 80 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight.py > $R/sanitizer.txt 2>&1; echo "sanitizer exit $?"; tail -26 $R/sanitizer.txt | cut -c1-100
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python -k "cuda" 2>&1 | tail -4) | tee $R/pytest_cuda.txt
timeout 130 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt
timeout 200 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt
timeout 60 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -5 $R/kernelbench.txt
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
d = json.load(open(f"{R}/bench_bwd.json"))
recs = d["records"] if isinstance(d, dict) else d
for r in recs:
    if r.get("convt1d_ms") is None or r["name"] not in ("upsample_x8_bias", "hifigan_up1", "hifigan_up2", "codec_dec_s8", "codec_dec_s5"): continue
    print(f"{r['name']:18s} {r['mode']:24s} {r['convt1d_ms']:8.3f} {r['cudnn_ms']:8.3f} {r['speedup']:6.2f}")
PY
