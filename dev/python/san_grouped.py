"""compute-sanitizer target: grouped layers on the register-A kernel, one launch per group on the group's view
(Session 24), forced (CONVT1D_BWD_INPUT=wgmma, CONVT1D_WGMMA_RS=1) in every precision: the forward (g4_s2, g2_s4:
aligned views, x by TMA; the others fall back), the strided grad_input (groups of 32 channels, uneven channels per
group with stride 5, odd grad_y rows (bulk-staged), eight groups) and grad_weight (CONVT1D_WGMMA_BW_RS=1; strides up to
4, 16-bit grad_y rows of even length). Prints the relative errors per case (no profiler:
CUPTI takes one subscriber)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "python"))
import convt1d  # noqa: E402
from helpers import kwargs, make_inputs, ref, rel_err  # noqa: E402

os.environ["CONVT1D_BWD_INPUT"] = "wgmma"
os.environ["CONVT1D_WGMMA_RS"] = "1"
os.environ["CONVT1D_WGMMA_BW_RS"] = "1"
base = dict(output_padding=0, dilation=1, bias=True)
cases = [dict(base, name="g4_s2", N=4, Cin=128, Cout=128, K=4, L=600, stride=2, padding=1, groups=4),
         dict(base, name="g2_s4_uneven", N=4, Cin=64, Cout=80, K=8, L=1024, stride=4, padding=2, groups=2),
         dict(base, name="g2_s5_uneven", N=2, Cin=64, Cout=96, K=10, L=133, stride=5, padding=3, output_padding=1, groups=2),
         dict(base, name="g8_s2_odd_rows", N=2, Cin=256, Cout=256, K=3, L=317, stride=2, padding=2, dilation=2, groups=8)]
for c in cases:
    for dt, tf32 in ((torch.float16, True), (torch.bfloat16, True), (torch.float32, True), (torch.float32, False)):
        torch.backends.cudnn.allow_tf32 = tf32
        x, w, b = make_inputs(c, dtype=dt, device="cuda", gen=torch.Generator().manual_seed(5))
        xr, wr = x.clone().requires_grad_(), w.clone().requires_grad_()
        y = convt1d.conv_transpose1d(xr, wr, b, **kwargs(c))
        gy = torch.randn(y.shape, dtype=torch.float64).to(device="cuda", dtype=dt)
        gx, gw = torch.autograd.grad(y, (xr, wr), gy)
        x64, w64 = x.double().requires_grad_(), w.double().requires_grad_()
        y64 = ref(x64, w64, None if b is None else b.double(), c)
        gx64, gw64 = torch.autograd.grad(y64, (x64, w64), gy.double())
        print(f"{c['name']:16s} {str(dt):15s} tf32={tf32!s:5s} rel_err y {rel_err(y, y64):.2e} grad_x {rel_err(gx, gx64):.2e} "
              f"grad_w {rel_err(gw, gw64):.2e}", flush=True)
