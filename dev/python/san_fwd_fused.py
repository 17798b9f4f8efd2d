"""Sanitizer target: the fused one-phase forward (fwd_phase_fused_kernel), forced in every mode, strided and
stride-1 layers, with and without bias, odd lengths, ragged channels, several tiles per block, against float64."""
import os

import torch

import convt1d

os.environ["CONVT1D_FWD_FUSED"] = "1"
for allow in (False, True):
    torch.backends.cudnn.allow_tf32 = allow
    for dt in ((torch.float32,) if not allow else (torch.float32, torch.bfloat16, torch.float16)):
        for (N, ci, co, K, L, s, p, d, bias) in ((2, 32, 64, 3, 40000, 2, 1, 2, False), (3, 12, 3, 3, 704, 3, 2, 3, True),
                                                 (2, 16, 24, 3, 1000, 4, 5, 8, True), (2, 16, 16, 3, 512, 1, 1, 1, True),
                                                 (3, 32, 64, 3, 1024, 2, 1, 2, True)):
            x = torch.randn(N, ci, L, device="cuda", dtype=dt)
            w = torch.randn(ci, co, K, device="cuda", dtype=dt) * .1
            b = torch.randn(co, device="cuda", dtype=dt) if bias else None
            y = convt1d.conv_transpose1d(x, w, b, s, p, 0, 1, d)
            yd = torch.nn.functional.conv_transpose1d(x.double(), w.double(), None if b is None else b.double(), s, p, 0, 1, d)
            e = ((y.double() - yd).norm() / yd.norm()).item()
            assert e < 1e-2, (allow, dt, N, ci, co, K, L, s, e)
torch.cuda.synchronize()
print("san ok")
