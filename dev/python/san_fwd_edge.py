"""Sanitizer target: the register-A forward with its last position tile dropped and fwd_edge_kernel writing those
outputs (CONVT1D_WGMMA_RS_EDGE=1), every mode, against float64."""
import os

import torch

import convt1d

os.environ["CONVT1D_WGMMA_RS"] = "1"
os.environ["CONVT1D_WGMMA_RS_EDGE"] = "1"
for allow in (False, True):
    torch.backends.cudnn.allow_tf32 = allow
    for dt in ((torch.float32,) if not allow else (torch.float32, torch.bfloat16, torch.float16)):
        for (N, ci, co, K, L, s, p, op, d, bias) in ((3, 128, 72, 16, 256, 8, 4, 0, 1, True), (2, 128, 64, 4, 256, 2, 1, 1, 1, False),
                                                     (18, 64, 32, 8, 256, 4, 2, 0, 1, True),
                                                     (2, 320, 40, 18, 256, 2, 1, 0, 1, True),  # 15 columns
                                                     (5, 192, 40, 10, 256, 5, 3, 1, 1, True)):  # stride 5, output_padding
            x = torch.randn(N, ci, L, device="cuda", dtype=dt)
            w = torch.randn(ci, co, K, device="cuda", dtype=dt) * .1
            b = torch.randn(co, device="cuda", dtype=dt) if bias else None
            y = convt1d.conv_transpose1d(x, w, b, s, p, op, 1, d)
            yd = torch.nn.functional.conv_transpose1d(x.double(), w.double(), None if b is None else b.double(), s, p, op, 1, d)
            e = ((y.double() - yd).norm() / yd.norm()).item()
            assert e < 1e-2, (allow, dt, N, ci, co, K, L, s, e)
torch.cuda.synchronize()
print("san ok")
