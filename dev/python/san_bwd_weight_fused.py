"""Sanitizer target: the fused one-phase grad_weight (bwd_weight_phase_fused_kernel and its reduction), forced in every
mode, strided and stride-1 layers, ragged channels and lengths, 1..4 taps, several tiles per block, against float64
autograd on the same inputs."""
import os

import torch
import torch.nn.functional as F

import convt1d  # noqa: F401

os.environ["CONVT1D_BWD_WEIGHT_FUSED"] = "1"
for allow in (False, True):
    torch.backends.cudnn.allow_tf32 = allow
    for dt in ((torch.float32,) if not allow else (torch.float32, torch.bfloat16, torch.float16)):
        for (N, ci, co, K, L, s, p, op, d) in ((2, 32, 64, 3, 40000, 2, 1, 0, 2), (3, 12, 3, 3, 704, 3, 2, 1, 3),
                                               (2, 16, 24, 4, 1000, 4, 5, 2, 8), (2, 16, 16, 3, 512, 1, 1, 0, 1),
                                               (2, 5, 7, 1, 8, 2, 0, 1, 2)):
            x = torch.randn(N, ci, L, device="cuda", dtype=torch.float64).to(dt)
            w = (torch.randn(ci, co, K, device="cuda", dtype=torch.float64) * .1).to(dt)
            w64 = w.double().requires_grad_(True)
            y = F.conv_transpose1d(x.double(), w64, None, s, p, op, 1, d)
            gy = torch.randn_like(y).to(dt)
            y.backward(gy.double())
            gw = torch.ops.convt1d.conv_transpose1d_backward(gy, x, w, s, p, op, 1, d, [False, True, False])[1]
            e = ((gw.double() - w64.grad).norm() / w64.grad.norm()).item()
            assert e < 1e-2, (allow, dt, N, ci, co, K, L, s, e)
torch.cuda.synchronize()
print("san ok")
