"""compute-sanitizer target: the register-A grad_weight (src/cuda/bwd_weight_rs.cu, strides 1..4, forced with
CONVT1D_WGMMA_BW_RS=1) on small shapes that reach its edges: odd channel counts, C_out <= 64 (alternate
stages), 64 < C_out < 128, padding, two tap groups with an excess tap, one batch row across splits, strides 2 and 4,
grad_y rows of odd length (s2_dilated, s1_odd_len: taken in fp32, 16-bit falls back).
Prints the relative error per case."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "python"))
import convt1d  # noqa: E402
from helpers import kwargs, make_inputs, ref, rel_err  # noqa: E402

os.environ["CONVT1D_WGMMA_BW_RS"] = "1"


def case(name, N, Cin, Cout, K, L, padding=0, dilation=1, stride=1, output_padding=0):
    return dict(name=name, N=N, Cin=Cin, Cout=Cout, K=K, L=L, stride=stride, padding=padding,
                output_padding=output_padding, groups=1, dilation=dilation, bias=False)


cases = [case("odd", 2, 37, 45, 3, 512, padding=1), case("cout100", 1, 64, 100, 4, 1024, dilation=2),
         case("taps9", 2, 16, 16, 9, 1024, padding=4, dilation=2), case("kb64ish", 1, 128, 128, 3, 8192),
         case("s2_dilated", 2, 32, 64, 3, 1024, padding=1, dilation=2, stride=2),
         case("s4_outpad", 2, 96, 80, 7, 512, padding=3, stride=4, output_padding=1),
         case("s1_odd_len", 2, 64, 48, 4, 1024, padding=1)]
for c in cases:
    for dtype, tf32 in [(torch.bfloat16, True), (torch.float16, True), (torch.float32, True)]:
        torch.backends.cudnn.allow_tf32 = tf32
        x, w, b = make_inputs(c, dtype=dtype, device="cuda")
        wr = w.clone().requires_grad_()
        y = convt1d.conv_transpose1d(x, wr, b, **kwargs(c))
        gy = torch.randn_like(y)
        (gw,) = torch.autograd.grad(y, wr, gy)
        w64 = w.double().requires_grad_()
        (gw64,) = torch.autograd.grad(ref(x.double(), w64, b, c), w64, gy.double())
        print(c["name"], dtype, f"grad_w {rel_err(gw, gw64):.2e}")
torch.cuda.synchronize()
