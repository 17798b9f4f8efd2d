"""Sanitizer target: the Hopper grad_input on phase planes (gather pack + planes transpose + wgmma forward;
run with CONVT1D_BWD_INPUT=wgmma to force it on small shapes) and the wgmma grad_weight (planes, shifted
copies, split reduce), bf16 and fp32, against float64; odd lengths and channel counts included."""
import torch

import convt1d

for dt in (torch.bfloat16, torch.float32):
    for (N, ci, co, K, L, s, p) in ((2, 96, 40, 16, 203, 8, 4), (1, 64, 24, 10, 130, 5, 3), (2, 128, 64, 16, 96, 8, 4),
                                    (3, 40, 72, 12, 77, 6, 2)):
        x = torch.randn(N, ci, L, device="cuda", dtype=dt, requires_grad=True)
        w = (torch.randn(ci, co, K, device="cuda", dtype=dt) * .1).requires_grad_()
        y = convt1d.conv_transpose1d(x, w, None, s, p)
        gy = torch.randn_like(y)
        y.backward(gy)
        xd, wd = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
        torch.nn.functional.conv_transpose1d(xd, wd, None, s, p).backward(gy.double())
        for a, b in ((x.grad, xd.grad), (w.grad, wd.grad)):
            e = ((a.double() - b).norm() / b.norm()).item()
            assert e < 2e-2, (dt, N, ci, co, K, L, s, e)
torch.cuda.synchronize()
print("san ok")
