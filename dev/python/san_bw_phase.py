"""Sanitizer target: the one-phase grad_weight (gy_phase_kernel + register-A kernel at stride 1) in 16-bit
and, forced, TF32, on KernelBench-79-like layers, against float64."""
import os

import torch

import convt1d

for force in ("", "1"):
    os.environ["CONVT1D_WGMMA_BW_PHASE"] = force
    for dt in (torch.bfloat16, torch.float16, torch.float32):
        for (N, ci, co, K, L, s, p, d) in ((2, 32, 64, 3, 4096, 2, 1, 2), (1, 32, 80, 3, 4096, 4, 5, 8)):
            x = torch.randn(N, ci, L, device="cuda", dtype=dt)
            w = (torch.randn(ci, co, K, device="cuda", dtype=dt) * .1).requires_grad_()
            y = convt1d.conv_transpose1d(x, w, None, s, p, 0, 1, d)
            gy = torch.randn_like(y)
            (gw,) = torch.autograd.grad(y, w, gy)
            wd = w.detach().double().requires_grad_()
            yd = torch.nn.functional.conv_transpose1d(x.double(), wd, None, s, p, 0, 1, d)
            (gwd,) = torch.autograd.grad(yd, wd, gy.double())
            e = ((gw.double() - gwd).norm() / gwd.norm()).item()
            assert e < 1e-2, (force, dt, N, ci, co, K, L, s, e)
torch.cuda.synchronize()
print("san ok")
