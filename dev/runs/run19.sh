#!/usr/bin/env bash
# Run 19: TMA probe for negative / unaligned box starts; then the reworked wgmma forward (X as the
# register A operand, aligned windows): smoke, tests, fp16/bf16 A/B against the mma.sync kernel.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvcc -O2 -gencode arch=compute_90a,code=sm_90a dev/cuda/tma/tma_probe.cu -lcuda -o /tmp/tma_probe && for v in 4 6 7 8 9 10 11; do /tmp/tma_probe $v; done
cat > /tmp/smoke.py <<'PY'
import torch, convt1d, torch.nn.functional as F
for (N, ci, co, K, L, s, p, d) in [(2, 128, 128, 3, 2048, 1, 0, 1), (2, 32, 64, 3, 4096, 2, 1, 2), (2, 512, 256, 16, 256, 8, 4, 1)]:
    x = torch.randn(N, ci, L, device="cuda", dtype=torch.bfloat16); w = torch.randn(ci, co, K, device="cuda", dtype=torch.bfloat16)
    y = convt1d.conv_transpose1d(x, w, stride=s, padding=p, dilation=d); torch.cuda.synchronize()
    r = F.conv_transpose1d(x.double(), w.double(), stride=s, padding=p, dilation=d)
    print("smoke", ci, co, s, "rel err %.3e" % ((y.double() - r).abs().max() / r.abs().max()).item(), "finite", torch.isfinite(y).all().item())
PY
timeout 60 compute-sanitizer --print-limit 2 python3 /tmp/smoke.py > $R/san.txt 2>&1; grep -E "^smoke|=====  *[A-Z]|=====     at|ERROR SUMMARY" $R/san.txt | head -8
timeout 150 python3 -m pytest -q --timeout=60 -p no:cacheprovider tests/python/test_cuda_wgmma.py 2>&1 | tail -8
S=kernelbench_64,kernelbench_74,kernelbench_79,upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,codec_dec_s8
timeout 150 python3 -m convt1d.bench --shapes $S --modes fp16,bf16 --budget-ms 100 --out $R/ab_wgmma1.json > $R/ab_wgmma1.txt 2>&1
echo "bench exit $?"; grep -E "^(kernelbench|upsample|hifigan|codec)" $R/ab_wgmma1.txt
