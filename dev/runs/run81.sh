#!/usr/bin/env bash
# Run 81: the committed results of session 10 (bulk-staged register-A forward / grad_input, strided
# register-A grad_weight on): the forward suite, the backward suite, the KernelBench evaluation.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_event_reasons.active --format=csv -lms 500 > $R/clocks.csv 2>&1 &
SMI=$!
timeout 150 python3 -m convt1d.bench --budget-ms 100 --out $R/bench_fwd.json --plot $R/bench_fwd.png > $R/bench_fwd.txt 2>&1; echo "bench fwd exit $?"; grep -E "geomean" $R/bench_fwd.txt
timeout 230 python3 -m convt1d.bench --backward --modes fp32_fwd_bwd,fp32_strict_fwd_bwd,fp16_fwd_bwd,bf16_fwd_bwd,fp32_bwd_input,fp32_bwd_weight,fp32_bwd_bias,fp32_strict_bwd_input,fp32_strict_bwd_weight,bf16_bwd_input,bf16_bwd_weight --budget-ms 60 --out $R/bench_bwd.json --plot $R/bench_bwd.png > $R/bench_bwd.txt 2>&1; echo "bench bwd exit $?"; grep -E "geomean" $R/bench_bwd.txt
kill $SMI 2>/dev/null
timeout 70 python3 kernelbench/evaluate.py --out $R/kernelbench.json > $R/kernelbench.txt 2>&1; echo "kb exit $?"; tail -5 $R/kernelbench.txt
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
for f in ("bench_fwd", "bench_bwd"):
    d = json.load(open(f"{R}/{f}.json"))
    for r in (d["records"] if isinstance(d, dict) else d):
        if r.get("convt1d_ms") is None or not r["name"].startswith("kernelbench_") or r["name"].endswith("small"): continue
        print(f"{r['name']:16s} {r['mode']:24s} {r['convt1d_ms']:8.3f} {r['cudnn_ms']:8.3f} {r['speedup']:6.2f} bw {r.get('pct_copy_bw', 0):4.0f}%")
PY
