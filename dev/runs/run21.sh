#!/usr/bin/env bash
# Run 21: fwd_wgmma rewritten as an SS kernel (both operands TMA-fed, input transposed to [n][l][ci]),
# now also TF32: sanitizer smoke, its tests (forced x BR 64/128/256, heuristic), an A/B against the
# mma.sync kernel and cuDNN (dev/python/ab_wgmma.py), then the CUDA pytest.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
cat > /tmp/smoke.py <<'PY'
import os, torch, convt1d, torch.nn.functional as F
os.environ["CONVT1D_WGMMA"] = "1"
for br in ("128", "256", "64"):
    os.environ["CONVT1D_WGMMA_BR"] = br
    for dt in (torch.float16, torch.bfloat16, torch.float32):
        for (N, ci, co, K, L, s, p, d) in [(2, 128, 128, 3, 200, 1, 0, 1), (2, 96, 72, 5, 101, 3, 2, 2), (1, 512, 256, 16, 64, 8, 4, 1)]:
            x = torch.randn(N, ci, L, device="cuda", dtype=dt); w = torch.randn(ci, co, K, device="cuda", dtype=dt); b = torch.randn(co, device="cuda", dtype=dt)
            y = convt1d.conv_transpose1d(x, w, b, stride=s, padding=p, dilation=d); torch.cuda.synchronize()
            r = F.conv_transpose1d(x.double(), w.double(), b.double(), stride=s, padding=p, dilation=d)
            print("smoke br", br, dt, ci, co, s, "rel err %.3e" % ((y.double() - r).abs().max() / r.abs().max()).item(), "finite", torch.isfinite(y).all().item(), flush=True)
PY
timeout 120 compute-sanitizer --print-limit 3 python3 /tmp/smoke.py > $R/san.txt 2>&1; grep -E "^smoke|=====  *[A-Z]|=====     at|ERROR SUMMARY|Error|error" $R/san.txt | head -40
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -15) | tee $R/pytest_wgmma.txt
S=upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,codec_dec_s8,codec_dec_s5,single_utterance_x8,kernelbench_64,kernelbench_74,kernelbench_79
timeout 220 python3 dev/python/ab_wgmma.py --shapes $S --out $R/ab_wgmma.json 2>&1 | tee $R/ab_wgmma.txt | cut -c1-400
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python -k "cuda and not wgmma" 2>&1 | tail -8) | tee $R/pytest_cuda.txt
