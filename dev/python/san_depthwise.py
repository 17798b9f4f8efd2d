"""Sanitizer target: the depthwise forward, grad_input and grad_weight (depthwise.cu) on test_cuda.py's DEPTHWISE layers (every
kernel variant: unrolled and runtime taps, fixed and moving phases, constant and runtime strides, channel multipliers,
rows' ends staged element by element), every dtype, against float64 on the GPU; no profiler (CUPTI does not run under
compute-sanitizer)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tests", "python"))
import convt1d  # noqa: E402
from test_cuda import DEPTHWISE  # noqa: E402

for ci, c in enumerate(DEPTHWISE):
    print("layer", ci, flush=True)
    for dt, tol in ((torch.float64, 1e-12), (torch.float32, 1e-5), (torch.float16, 2e-3), (torch.bfloat16, 1e-2)):
        x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=torch.float64)
        w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], device="cuda", dtype=torch.float64)
        b = torch.randn(c["Cout"], device="cuda", dtype=torch.float64) if c["bias"] else None
        args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
        y = convt1d.conv_transpose1d(x.to(dt), w.to(dt), None if b is None else b.to(dt), *args)
        yd = torch.nn.functional.conv_transpose1d(x.to(dt).double(), w.to(dt).double(),
                                                  None if b is None else b.to(dt).double(), *args)
        e = ((y.double() - yd).norm() / yd.norm()).item()
        assert torch.isfinite(y).all() and e < tol, (c, dt, e)
        gy = torch.randn_like(yd).to(dt)
        gx = torch.ops.convt1d.conv_transpose1d_backward(gy, x.to(dt), w.to(dt), *args, [True, False, False])[0]
        xs = x.to(dt).double().requires_grad_()
        (gd,) = torch.autograd.grad(torch.nn.functional.conv_transpose1d(xs, w.to(dt).double(), None, *args), xs, gy.double())
        e = ((gx.double() - gd).norm() / gd.norm()).item()
        assert torch.isfinite(gx).all() and e < tol, ("grad_input", c, dt, e)
        gw = torch.ops.convt1d.conv_transpose1d_backward(gy, x.to(dt), w.to(dt), *args, [False, True, False])[1]
        ws = w.to(dt).double().requires_grad_()
        (gd,) = torch.autograd.grad(torch.nn.functional.conv_transpose1d(x.to(dt).double(), ws, None, *args), ws, gy.double())
        e = ((gw.double() - gd).norm() / gd.norm()).item()
        assert torch.isfinite(gw).all() and e < tol, ("grad_weight", c, dt, e)
torch.cuda.synchronize()
print("san ok")
