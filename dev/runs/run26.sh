#!/usr/bin/env bash
# Run 26: split TF32 with a per-stage accumulator added in fp32 (run 25: the tensor core's own accumulation
# drifted to 2e-5 relative): sanitizer smoke, wgmma tests, strict A/B, CUDA pytest.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
cat > /tmp/smoke.py <<'PY'
import os, torch, convt1d, torch.nn.functional as F
torch.backends.cudnn.allow_tf32 = False
os.environ["CONVT1D_WGMMA"] = "1"
for br in ("128", "256", "64"):
    os.environ["CONVT1D_WGMMA_BR"] = br
    for (N, ci, co, K, L, s, p, d) in [(2, 128, 128, 3, 200, 1, 0, 1), (2, 96, 72, 5, 101, 3, 2, 2), (1, 512, 256, 16, 64, 8, 4, 1)]:
        x = torch.randn(N, ci, L, device="cuda"); w = torch.randn(ci, co, K, device="cuda"); b = torch.randn(co, device="cuda")
        y = convt1d.conv_transpose1d(x, w, b, stride=s, padding=p, dilation=d); torch.cuda.synchronize()
        r = F.conv_transpose1d(x.double(), w.double(), b.double(), stride=s, padding=p, dilation=d)
        print("smoke strict br", br, ci, co, s, "rel err %.3e" % ((y.double() - r).abs().max() / r.abs().max()).item(), "finite", torch.isfinite(y).all().item(), flush=True)
    x = torch.randn(2, 128, 300, device="cuda", requires_grad=True); w = torch.randn(128, 96, 3, device="cuda")
    y = convt1d.conv_transpose1d(x, w, padding=1); gy = torch.randn_like(y); (gx,) = torch.autograd.grad(y, x, gy)
    xd = x.detach().double().requires_grad_(); (gr,) = torch.autograd.grad(F.conv_transpose1d(xd, w.double(), padding=1), xd, gy.double())
    print("smoke strict adjoint br", br, "rel err %.3e" % ((gx.double() - gr).abs().max() / gr.abs().max()).item(), flush=True)
PY
timeout 120 compute-sanitizer --print-limit 3 python3 /tmp/smoke.py > $R/san.txt 2>&1; grep -E "^smoke|=====  *[A-Z]|=====     at|ERROR SUMMARY|Error|error" $R/san.txt | head -30
(cd /tmp && timeout 200 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider $OLDPWD/tests/python/test_cuda_wgmma.py 2>&1 | tail -6) | tee $R/pytest_wgmma.txt
S=upsample_x8_bias,hifigan_up1,hifigan_up2,codec_dec_s8,codec_dec_s5,single_utterance_x8,hifigan_up3,kernelbench_64,kernelbench_74,kernelbench_79
timeout 200 python3 dev/python/ab_wgmma.py --shapes $S --modes fp32_strict --variants mma_sync,wg128,wg256,shipped --out $R/ab_strict.json 2>&1 | tee $R/ab_strict.txt | cut -c1-330
(cd /tmp && timeout 200 python3 -m pytest -q --timeout=60 -p no:cacheprovider $OLDPWD/tests/python -k "cuda and not wgmma" 2>&1 | tail -4) | tee $R/pytest_cuda.txt
