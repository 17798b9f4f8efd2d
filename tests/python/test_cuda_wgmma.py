"""fp16/bf16 forward shapes large enough for the Hopper wgmma/TMA kernel (src/cuda/fwd_wgmma.cu).

On an sm_90 GPU these take that kernel (groups 1, L_in a multiple of 8, above the tiny-problem size),
forced with CONVT1D_WGMMA=1 and by the shipped heuristic; elsewhere the mma.sync kernel, and the checks
hold the same. Each shape hits one of its cases: channel
counts that are not multiples of the 64-channel chunk or of the 64/128-row tile, merged strides 2..16
with dilation and padding, output_padding, odd output lengths (unaligned output rows), bias, and the
stride-1 grad_input that runs the forward on the adjoint weights. The output memory is poisoned with
NaN first so that an unwritten element fails."""
import pytest
import torch

import convt1d
from helpers import cuda_ready, kwargs, make_inputs, ref, rel_err

pytestmark = [pytest.mark.cuda,
              pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU and a CUDA build of libconvt1d")]


def shape(name, N, Cin, Cout, K, L, stride=1, padding=0, output_padding=0, dilation=1, bias=True):
    return dict(name=name, N=N, Cin=Cin, Cout=Cout, K=K, L=L, stride=stride, padding=padding,
                output_padding=output_padding, groups=1, dilation=dilation, bias=bias)


SHAPES = [
    shape("kb64_like", 2, 128, 128, 3, 2048, bias=False),
    shape("kb74_like_padded", 3, 32, 64, 5, 4096, padding=2, dilation=3, bias=False),
    shape("kb79_like", 2, 32, 64, 3, 4096, stride=2, padding=1, dilation=2, bias=False),
    shape("upsample_x8", 2, 512, 256, 16, 256, stride=8, padding=4),
    shape("hifigan_up3_like", 2, 128, 64, 4, 4096, stride=2, padding=1),
    shape("s4_outpad_odd_channels", 2, 96, 80, 7, 1024, stride=4, padding=3, output_padding=1),
    shape("pointwise_wide", 2, 72, 200, 1, 2048),
    shape("s16_k32", 2, 64, 48, 32, 512, stride=16, padding=8),
    shape("s2_big_padding_dilated", 2, 64, 40, 4, 2048, stride=2, padding=5, dilation=3, output_padding=1),
    shape("s1_padding_past_span", 3, 48, 24, 3, 4096, padding=7, bias=False),
    shape("few_channels_long", 4, 16, 16, 9, 16384, stride=1, padding=4, dilation=2),
]


def poison_then_run(x, w, b, c):
    # The caching allocator hands the freed NaN block to the output of the same size.
    lout = (c["L"] - 1) * c["stride"] - 2 * c["padding"] + c["dilation"] * (c["K"] - 1) + c["output_padding"] + 1
    junk = torch.full((c["N"], c["Cout"], lout), float("nan"), dtype=x.dtype, device=x.device)
    del junk
    return convt1d.conv_transpose1d(x, w, b, **kwargs(c))


@pytest.mark.parametrize("pick", ["forced", "heuristic"])
@pytest.mark.parametrize("dtype,tol", [(torch.float16, 2e-3), (torch.bfloat16, 1e-2)])
@pytest.mark.parametrize("c", SHAPES, ids=[c["name"] for c in SHAPES])
def test_wgmma_forward(c, dtype, tol, pick, monkeypatch):
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_WGMMA", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)  # fresh inputs every run
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y = poison_then_run(x, w, b, c)
    assert y.dtype == dtype and torch.isfinite(y).all()
    assert rel_err(y, ref(x, w, b, c)) <= tol


@pytest.mark.parametrize("dtype,tol", [(torch.float16, 2e-3), (torch.bfloat16, 1e-2)])
@pytest.mark.parametrize("c", [SHAPES[0], SHAPES[1], SHAPES[6]], ids=["kb64_like", "kb74_like", "pointwise"])
def test_wgmma_grad_input_adjoint(c, dtype, tol, monkeypatch):
    # Stride-1 grad_input is the forward of the adjoint problem (weights read transposed and flipped).
    monkeypatch.setenv("CONVT1D_WGMMA", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    xr = x.clone().requires_grad_()
    y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
    gy = torch.randn(y.shape, generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
    (gx,) = torch.autograd.grad(y, xr, gy)
    x64 = x.double().requires_grad_()
    y64 = ref(x64, w, b, c)
    (gx64,) = torch.autograd.grad(y64, x64, gy.double())
    assert torch.isfinite(gx).all() and rel_err(gx, gx64) <= tol
