#!/usr/bin/env bash
# Run 15: first run of the wgmma/TMA fp16/bf16 forward (src/cuda/fwd_wgmma.cu): its tests, an A/B of the
# forward suite with it off (CONVT1D_WGMMA=0) and on, then the backward harness validation for 999ad37.
# Needs CONVT1D_LIBRARY (carried build); writes $OUT.
set -u
export PYTHONPATH=$PWD/python
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 60 python3 - <<'PY' 2>&1 | tee $R/smoke.txt
import torch, convt1d, torch.nn.functional as F
x = torch.randn(2, 128, 2048, device="cuda", dtype=torch.bfloat16); w = torch.randn(128, 128, 3, device="cuda", dtype=torch.bfloat16)
y = convt1d.conv_transpose1d(x, w); torch.cuda.synchronize()
r = F.conv_transpose1d(x.double(), w.double())
print("smoke rel err", ((y.double() - r).abs().max() / r.abs().max()).item(), "finite", torch.isfinite(y).all().item())
PY
timeout 150 python3 -m pytest -q -x --timeout=60 -p no:cacheprovider tests/python/test_cuda_wgmma.py 2>&1 | tail -25 | tee $R/pytest_wgmma.txt
S=kernelbench_64,kernelbench_74,kernelbench_79,upsample_x8_bias,hifigan_up1,hifigan_up2,hifigan_up3,hifigan_up4,codec_dec_s8
for v in 0 1; do
  timeout 150 env CONVT1D_WGMMA=$v python3 -m convt1d.bench --shapes $S --modes fp16,bf16 --budget-ms 100 --out $R/ab_wgmma$v.json > $R/ab_wgmma$v.txt 2>&1
  echo "== CONVT1D_WGMMA=$v exit $?"; grep -E "^(kernelbench|upsample|hifigan|codec)" $R/ab_wgmma$v.txt
done
timeout 240 bash dev/cuda/bwd/run.sh --no-bench > $R/bwd_harness.txt 2>&1; echo "bwd harness exit $?"; tail -5 $R/bwd_harness.txt
