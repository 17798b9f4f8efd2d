#!/usr/bin/env bash
# Run 29: first run of the wgmma grad_weight kernel (src/cuda/bwd_weight_wgmma.cu) and of the shared
# wgmma_common.cuh refactor: wgmma tests (forward + grad_weight), sanitizer, A/B of grad_weight
# (CONVT1D_WGMMA_BW=0: the mma.sync kernel; unset: shipped; =1 forced) against cuDNN.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
(cd /tmp && timeout 60 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py -k "grad_weight and upsample" 2>&1 | tail -15) | tee $R/pytest_quick.txt
timeout 90 compute-sanitizer --tool memcheck python3 dev/python/san_bwd_weight.py > $R/sanitizer.txt 2>&1; echo "sanitizer exit $?"; tail -15 $R/sanitizer.txt
V=upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s8,codec_dec_s5,single_utterance_x8
M=fp32_bwd_weight,fp32_strict_bwd_weight,bf16_bwd_weight
CONVT1D_WGMMA_BW=0 timeout 100 python3 -m convt1d.bench --backward --shapes $V --modes $M --budget-ms 60 --out $R/bw_off.json > $R/bw_off.txt 2>&1; echo "off exit $?"
timeout 100 python3 -m convt1d.bench --backward --shapes $V --modes $M --budget-ms 60 --out $R/bw_on.json > $R/bw_on.txt 2>&1; echo "on exit $?"
CONVT1D_WGMMA_BW=1 timeout 60 python3 -m convt1d.bench --backward --shapes hifigan_up3,hifigan_up4,kernelbench_79 --modes $M --budget-ms 60 --out $R/bw_forced.json > $R/bw_forced.txt 2>&1; echo "forced exit $?"
python3 - <<'PY'
import json, os
R = os.environ["OUT"] + "/r"
for f in ["bw_off", "bw_on", "bw_forced"]:
    try:
        d = json.load(open(f"{R}/{f}.json"))
    except Exception as e:
        print(f, "missing", e); continue
    recs = d["records"] if isinstance(d, dict) else d
    for r in recs:
        if r.get("convt1d_ms") is None: continue
        print(f"{f:10s} {r['name']:22s} {r['mode']:24s} {r['convt1d_ms']:8.3f} {r['cudnn_ms']:8.3f} {r['speedup']:6.2f} err {r.get('rel_err', float('nan')):.1e}")
PY
(cd /tmp && timeout 170 python3 -m pytest -q --timeout=120 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -15) | tee $R/pytest_wgmma.txt
