"""Sanitizer target: the fused one-phase grad_input (bwd_input_phase_fused_kernel), forced in every mode, strided and
stride-1 layers, odd lengths, ragged channels, several tiles per block, against float64 autograd."""
import os

import torch
import torch.nn.functional as F

import convt1d  # noqa: F401

os.environ["CONVT1D_BWD_INPUT_FUSED"] = "1"
for allow in (False, True):
    torch.backends.cudnn.allow_tf32 = allow
    for dt in ((torch.float32,) if not allow else (torch.float32, torch.bfloat16, torch.float16)):
        for (N, ci, co, K, L, s, p, op, d) in ((2, 32, 64, 3, 40000, 2, 1, 0, 2), (3, 12, 3, 3, 701, 3, 2, 1, 3),
                                               (2, 16, 24, 3, 999, 4, 5, 2, 8), (2, 16, 16, 3, 513, 1, 1, 0, 1)):
            x = torch.randn(N, ci, L, device="cuda", dtype=torch.float64, requires_grad=True)
            w = torch.randn(ci, co, K, device="cuda", dtype=torch.float64) * .1
            y = F.conv_transpose1d(x, w, None, s, p, op, 1, d)
            gy = torch.randn_like(y)
            y.backward(gy)
            gx = torch.ops.convt1d.conv_transpose1d_backward(gy.to(dt), x.detach().to(dt), w.to(dt), s, p, op, 1, d,
                                                             [True, False, False])[0]
            e = ((gx.double() - x.grad).norm() / x.grad.norm()).item()
            assert e < 1e-2, (allow, dt, N, ci, co, K, L, s, e)
torch.cuda.synchronize()
print("san ok")
