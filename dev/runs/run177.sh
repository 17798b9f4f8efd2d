#!/usr/bin/env bash
# Run 177 (session 18): run 176 hit an illegal instruction on kb64_like's grad_input with grouped rows (odd_rows passed
# the sanitizer): which configurations fail (dev/python/dbg_groups.py), then the sanitizer on one.
set -u
export PYTHONPATH=$PWD/python CONVT1D_LIBRARY=$PWD/.carry/libconvt1d.so CONVT1D_COMMIT=$1 PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
trap 'tar -C "$OUT" -czf "$OUT/results.tgz" r && rm -rf "$R"' EXIT
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/gpu.txt
bash scripts/build_torch_op.sh .carry > $R/build_op.txt 2>&1; echo "op build exit $?"
timeout 300 python3 dev/python/dbg_groups.py 2>&1 | tee $R/dbg.txt
cat > /tmp/one.py <<'PY'
import sys, torch
sys.path.insert(0, "tests/python")
import convt1d
from helpers import kwargs, make_inputs
c = dict(N=2, Cin=128, Cout=128, K=3, L=2048, stride=1, padding=0, output_padding=0, groups=1, dilation=1, bias=False)
x, w, b = make_inputs(c, dtype=torch.float16, device="cuda")
xr = x.clone().requires_grad_()
y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
(gx,) = torch.autograd.grad(y, xr, torch.randn_like(y))
torch.cuda.synchronize()
PY
CONVT1D_WGMMA_RS=1 CONVT1D_BWD_INPUT_FUSED=0 timeout 120 compute-sanitizer --tool memcheck python3 /tmp/one.py > $R/san_one.txt 2>&1; echo "san exit $?"; grep -v "^=========     Host Frame" $R/san_one.txt | head -40
