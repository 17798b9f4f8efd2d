"""Shared test helpers: configurations from tests/problems.json, references, error metrics."""
from __future__ import annotations

import json
import os
import random

import torch
import torch.nn.functional as F

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBLEMS = json.load(open(os.path.join(REPO, "tests", "problems.json")))
KEYS = ("N", "Cin", "Cout", "K", "L", "stride", "padding", "output_padding", "groups", "dilation", "bias")
HAS_CUDA = torch.cuda.is_available()


def cuda_ready() -> bool:
    import convt1d
    return HAS_CUDA and convt1d.has_cuda()


def out_len(c) -> int:
    # Independent of the library: the test's own statement of PyTorch's formula.
    return ((c["L"] - 1) * c["stride"] - 2 * c["padding"] + c["dilation"] * (c["K"] - 1)
            + c["output_padding"] + 1)


def shrink(c: dict, max_len: int = 48, max_n: int = 2) -> dict:
    """A CPU-sized copy of a suite shape: every parameter kept except N and L (L stays >= 1 output)."""
    c = dict(c)
    c["N"] = min(c["N"], max_n)
    c["L"] = min(c["L"], max_len)
    while out_len(c) < 1:
        c["L"] += 1
    return c


def make_inputs(c: dict, dtype=torch.float64, device="cpu", gen: torch.Generator | None = None):
    g = gen or torch.Generator().manual_seed(hash(tuple(c[k] for k in KEYS)) & 0xFFFF)
    x = torch.randn(c["N"], c["Cin"], c["L"], generator=g, dtype=torch.float64)
    w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], generator=g, dtype=torch.float64)
    b = torch.randn(c["Cout"], generator=g, dtype=torch.float64) if c["bias"] else None
    cast = lambda t: None if t is None else t.to(device=device, dtype=dtype)
    return cast(x), cast(w), cast(b)


def kwargs(c: dict) -> dict:
    return dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"],
                groups=c["groups"], dilation=c["dilation"])


def ref(x, w, b, c) -> torch.Tensor:
    """PyTorch's conv_transpose1d in float64 (the reference only; never the library's compute)."""
    return F.conv_transpose1d(x.double(), w.double(), None if b is None else b.double(), **kwargs(c))


def brute(x, w, b, c) -> torch.Tensor:
    """Straight from the definition, independent of PyTorch's convolution: for every tap k, input i
    lands on output o = i*stride + k*dilation - padding."""
    x, w = x.double().cpu(), w.double().cpu()
    n, cin, length = x.shape
    g = c["groups"]
    cig, cog = cin // g, w.shape[1]
    lout = out_len(dict(c, L=length))
    y = torch.zeros(n, cog * g, lout, dtype=torch.float64)
    for gi in range(g):
        xs = x[:, gi * cig:(gi + 1) * cig]
        ws = w[gi * cig:(gi + 1) * cig]
        for k in range(w.shape[2]):
            contrib = torch.einsum("nci,cd->ndi", xs, ws[:, :, k])  # [n, cog, L]
            o = torch.arange(length) * c["stride"] + k * c["dilation"] - c["padding"]
            keep = (o >= 0) & (o < lout)
            y[:, gi * cog:(gi + 1) * cog].index_add_(2, o[keep], contrib[:, :, keep])
    if b is not None:
        y += b.double().cpu().view(1, -1, 1)
    return y


def rel_err(y, r) -> float:
    """max |y - r| / max |r| (max-norm relative error)."""
    y, r = y.double().cpu(), r.double().cpu()
    if r.numel() == 0:
        return 0.0
    den = r.abs().max().item()
    return (y - r).abs().max().item() / (den if den > 0 else 1.0)


def tf32_within_bound(got, r, mag, sumsq, n_terms: int) -> bool:
    """Whether every element of got is within TF32's rounding error of the float64 reference r, for random inputs.

    TF32 rounds each operand to a 10-bit mantissa (to nearest: relative error up to 2^-11, about uniform), so the error
    of an output scales with its terms, not with the output: where the terms cancel (an output of few elements, each a
    sum of hundreds of terms) it can exceed 5e-3 of max |r| with no fault at all, as a one-output layer of 476 terms
    does in about 4% of random draws. Per product the relative error has variance 2 (2^-11)^2 / 3, so an output's
    rounding error has standard deviation sqrt(2/3) 2^-11 sqrt(sumsq), sumsq = the same convolution of x^2 and w^2 (the
    sum of its squared terms); the fp32 sums add about sqrt(n_terms) 2^-23 mag (mag = the convolution of |x| and |w|;
    2^-23: the tensor cores' accumulation need not round to nearest). Accepted: within 8 of those per element, plus the
    output's own rounding. A lost or wrong term of more than ~0.2 of the root-mean-square term still fails."""
    got, r, mag, sumsq = (t.double().cpu() for t in (got, r, mag, sumsq))
    sd = (2.0 / 3.0) ** 0.5 * 2.0 ** -11 * sumsq.sqrt() + n_terms ** 0.5 * 2.0 ** -23 * mag
    return bool(((got - r).abs() <= 8 * sd + 2.0 ** -23 * r.abs()).all())


def random_configs(count: int, seed: int, max_len: int = 24) -> list[dict]:
    """Seeded random legal configurations covering groups, stride/dilation/padding mixes, K=1, L=1."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = rng.choice([1, 1, 1, 2, 3, 4])
        s, d = rng.randint(1, 5), rng.choice([1, 1, 2, 3, 4, 7])
        c = dict(N=rng.choice([1, 1, 2, 3]), Cin=g * rng.randint(1, 4), Cout=g * rng.randint(1, 4),
                 K=rng.choice([1, 2, 3, 4, 5, 7, 9]), L=rng.randint(1, max_len), stride=s,
                 padding=rng.randint(0, 6), output_padding=rng.randint(0, max(s, d) - 1),
                 groups=g, dilation=d, bias=rng.random() < 0.5)
        if out_len(c) >= 1:
            c["name"] = "rand{}_".format(len(out)) + "_".join(f"{k}{c[k]}" for k in KEYS)
            out.append(c)
    return out


def suite(tag: str | None = None) -> list[dict]:
    return [c for c in PROBLEMS["suite"] if tag is None or tag in c.get("tags", [])]


def edge_cases() -> list[dict]:
    return list(PROBLEMS["edge_cases"])


def kernels_run(fn):
    """Names of the CUDA kernels fn() launches (torch.profiler sees the library's launches too)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]


def captured(fn):
    """fn() captured in a CUDA graph, after one warm-up call on a side stream (as torch.cuda.graphs asks): (the graph,
    what the captured call returned, whose memory each replay rewrites)."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = fn()
    return g, out
