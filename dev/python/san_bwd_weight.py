"""compute-sanitizer target: the wgmma grad_weight path (CONVT1D_WGMMA_BW=1) and the wgmma strided
grad_input (CONVT1D_BWD_INPUT=wgmma) on small strided shapes,
every kind, one and several batch chunks. Prints the worst relative error per case."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "python"))
import convt1d  # noqa: E402
from helpers import kwargs, make_inputs, ref, rel_err  # noqa: E402

os.environ["CONVT1D_WGMMA_BW"] = "1"
cases = [dict(name="s8", N=2, Cin=160, Cout=40, K=16, L=200, stride=8, padding=4, output_padding=0, groups=1,
              dilation=1, bias=True),
         dict(name="s7", N=3, Cin=72, Cout=37, K=14, L=200, stride=7, padding=3, output_padding=2, groups=1,
              dilation=1, bias=False)]
for c in cases:
    for dtype, tf32 in [(torch.bfloat16, True), (torch.float32, True), (torch.float32, False)]:
        for chunk in ["", "1"]:
            os.environ["CONVT1D_WGMMA_BW_SCRATCH"] = chunk
            torch.backends.cudnn.allow_tf32 = tf32
            x, w, b = make_inputs(c, dtype=dtype, device="cuda")
            wr = w.clone().requires_grad_()
            y = convt1d.conv_transpose1d(x, wr, b, **kwargs(c))
            gy = torch.randn_like(y)
            (gw,) = torch.autograd.grad(y, wr, gy)
            w64 = w.double().requires_grad_()
            (gw64,) = torch.autograd.grad(ref(x.double(), w64, b, c), w64, gy.double())
            print(c["name"], dtype, tf32, "chunked" if chunk else "one", f"grad_w {rel_err(gw, gw64):.2e}")
            # grad_input through the wgmma forward (forced)
            os.environ["CONVT1D_BWD_INPUT"] = "wgmma"
            os.environ["CONVT1D_WGMMA"] = "1"
            xr = x.clone().requires_grad_()
            (gx,) = torch.autograd.grad(convt1d.conv_transpose1d(xr, w, b, **kwargs(c)), xr, gy)
            x64 = x.double().requires_grad_()
            (gx64,) = torch.autograd.grad(ref(x64, w.double(), b, c), x64, gy.double())
            print(c["name"], dtype, tf32, f"grad_x {rel_err(gx, gx64):.2e}")
            del os.environ["CONVT1D_BWD_INPUT"], os.environ["CONVT1D_WGMMA"]
torch.cuda.synchronize()
