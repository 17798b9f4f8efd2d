"""compute-sanitizer target: the register-A wgmma forward (CONVT1D_WGMMA_RS=1) on small stride-1 and
merged-stride shapes, every kind and tile, resident weights, both epilogues, the input staged by TMA, by
bulk copies per row and by cp.async, the stride-1 grad_input through it (adjoint weights; grad_y's rows are
no 16-byte multiple there, so bulk copies, or TMA boxes of grouped rows where the layer is large enough for the wgmma path:
grouped_rows, grouped_rows_x4; odd_rows: odd lengths, rows at odd 16-bit offsets;
odd_rows_pairs: the same with 16-bit position pairs), and the
strided grad_input reading grad_y in place (BI mode; stride 5: chunks holding partial grad_y rows; s4_wide:
even stride, padding and length, so 16-bit fragment pairs load as words).
With CONVT1D_WGMMA_RS_OP=1 in the environment the one-phase layer (kb79ish) takes the register-A kernel's one-phase
form (outputs s apart in the staged rows; session 21). Prints the worst relative error per case."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "python"))
import convt1d  # noqa: E402
from helpers import kwargs, make_inputs, ref, rel_err  # noqa: E402

os.environ["CONVT1D_WGMMA_RS"] = "1"
cases = [dict(name="kb64ish", N=2, Cin=96, Cout=72, K=3, L=1024, stride=1, padding=1, output_padding=0, groups=1,
              dilation=1, bias=True),
         dict(name="kb79ish", N=3, Cin=40, Cout=64, K=3, L=520, stride=2, padding=1, output_padding=1, groups=1,
              dilation=2, bias=False),
         dict(name="s4_wide", N=2, Cin=64, Cout=80, K=7, L=264, stride=4, padding=2, output_padding=1, groups=1,
              dilation=1, bias=True),
         dict(name="s5_partial_rows", N=2, Cin=64, Cout=40, K=10, L=258, stride=5, padding=3, output_padding=1,
              groups=1, dilation=1, bias=True),
         dict(name="s2_odd_grad_y", N=2, Cin=48, Cout=40, K=4, L=301, stride=2, padding=1, output_padding=1,
              groups=1, dilation=1, bias=True),
         dict(name="odd_rows", N=3, Cin=72, Cout=40, K=3, L=1001, stride=1, padding=0, output_padding=0, groups=1,
              dilation=2, bias=True),
         dict(name="odd_rows_pairs", N=3, Cin=72, Cout=40, K=4, L=777, stride=1, padding=1, output_padding=0, groups=1,
              dilation=1, bias=True),  # 16-bit position pairs by default (dilation 1), rows 2 mod 4 bytes apart
         # grad_y rows in groups (session 18; large enough for the wgmma path): 2050 values (fp32 groups of 2,
         # 16-bit of 4), 2049 (fp32 groups of 4 with a last chunk of 4 channels; 16-bit by bulk copies)
         dict(name="grouped_rows", N=2, Cin=128, Cout=128, K=3, L=2048, stride=1, padding=0, output_padding=0, groups=1,
              dilation=1, bias=False),
         dict(name="grouped_rows_x4", N=4, Cin=64, Cout=36, K=3, L=2047, stride=1, padding=0, output_padding=0,
              groups=1, dilation=1, bias=True),
         # spare rows (session 26): channels past r_tiles*R in the rows a tile's whole channels leave (stride 5: at every
         # tile height; stride 6: the direct stores' adjacent-phase pairs; rows a 16-byte multiple, so TMA boxes)
         dict(name="s5_spare", N=2, Cin=64, Cout=256, K=10, L=264, stride=5, padding=3, output_padding=1, groups=1,
              dilation=1, bias=True),
         dict(name="s6_spare", N=2, Cin=64, Cout=128, K=12, L=264, stride=6, padding=2, output_padding=0, groups=1,
              dilation=1, bias=True)]
if os.environ.get("SAN_CASES"):  # SAN_CASES=grouped_rows,odd_rows: a subset
    cases = [c for c in cases if c["name"] in os.environ["SAN_CASES"].split(",")]
os.environ["CONVT1D_BWD_INPUT"] = "wgmma"  # strided grad_input on the RS kernel too (BI mode)
for c in cases:
    for dtype, tf32 in [(torch.bfloat16, True), (torch.float16, True), (torch.float32, True), (torch.float32, False)]:
        tiles = "auto,64x1,64x2,128x1,128x2,256x1,cp,bulk,nobulk,wres,direct,staged,pp"
        for tile in os.environ.get("SAN_TILES", tiles).split(","):  # SAN_TILES=auto,bulk: a subset
            tile = "" if tile == "auto" else tile
            os.environ["CONVT1D_WGMMA_RS_TILE"] = "" if tile in ("cp", "bulk", "nobulk", "wres", "direct", "staged", "pp") else tile
            os.environ["CONVT1D_WGMMA_RS_CPASYNC"] = "1" if tile == "cp" else ""
            os.environ["CONVT1D_WGMMA_RS_BULK"] = {"bulk": "1", "nobulk": "0"}.get(tile, "")  # bulk rows: always / never
            os.environ["CONVT1D_WGMMA_RS_WRES"] = "1" if tile == "wres" else ""  # weights resident wherever they fit
            os.environ["CONVT1D_WGMMA_RS_EPI"] = tile if tile in ("direct", "staged") else ""  # epilogue forced
            os.environ["CONVT1D_WGMMA_RS_PP"] = "1" if tile == "pp" else ""  # ping-pong tiles
            torch.backends.cudnn.allow_tf32 = tf32
            x, w, b = make_inputs(c, dtype=dtype, device="cuda")
            xr = x.clone().requires_grad_()
            y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
            gy = torch.randn_like(y)
            (gx,) = torch.autograd.grad(y, xr, gy)
            x64 = x.double().requires_grad_()
            y64 = ref(x64, w, b, c)
            (gx64,) = torch.autograd.grad(y64, x64, gy.double())
            print(c["name"], dtype, tf32, tile or "auto", f"y {rel_err(y, y64):.2e} grad_x {rel_err(gx, gx64):.2e}")
