"""Randomized differential test ("fuzz") of convt1d against PyTorch's conv_transpose1d in float64.

Each case draws a random legal layer (groups incl. depthwise / channel multipliers, small, odd and round channel
counts, K 1-16, stride 1-8, dilation, padding up to K*dilation, output_padding, bias, batch 1-4, lengths from 1 up to
~2e6 output elements) and a random input layout (contiguous, a storage offset of one element so that nothing is
16-byte aligned, a sliced or a permuted view; unbatched 2-D input; grad_y with an offset too), then checks through
autograd, on fresh random inputs, y, grad_x, grad_w and grad_b of the convt1d API (functional, or the nn.Module with
output_padding or output_size) against the float64 results of torch.nn.functional.conv_transpose1d on the same
(rounded) values, computed on the same device, with the tolerances of tests/python/test_cuda.py per precision mode.
It complements the hand-picked layers of tests/python with layers nobody picked, large enough to reach the
tensor-core paths on the GPU.

    python dev/python/fuzz.py --count 300 --out $OUT/fuzz.json             # GPU (cuda when available)
    python dev/python/fuzz.py --count 40 --device cpu                      # the CPU path
    python dev/python/fuzz.py --seed 0 --case 17 --modes bf16              # one case again (cases are independent)

convt1d is imported from this checkout's python/ (CONVT1D_TEST_INSTALLED=1: the installed package), the library
found as the tests find it (CONVT1D_LIBRARY or build/*/libconvt1d.so). CUDA modes: fp32 (allow_tf32 = True),
fp32_strict, fp16, bf16, fp64, one random mode per case or all of them for --all-modes-frac of the cases; CPU:
fp32_strict (the CPU path computes fp32 in fp32), fp16, bf16, fp64. A library exception on a layer PyTorch accepts is
a failure; a layer PyTorch rejects is skipped. Counts are per (case, mode); exit code 1 if any failed. The JSON report
is a list of records, one per (case, mode); a failure's record names the library's CUDA kernels that ran.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn.functional as F

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if not os.environ.get("CONVT1D_TEST_INSTALLED"):
    sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.join(REPO, "tests", "python"))
import convt1d  # noqa: E402
from helpers import KEYS, kernels_run, kwargs, out_len, rel_err, tf32_within_bound  # noqa: E402  (rel_err: max|a - r| / max|r|, as every test measures)

DTYPE = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
         "fp64": torch.float64}
# tests/python/test_cuda.py's tolerances (test_cuda_f64, _f32_strict, _tf32_mode, _half; the same for its gradient
# tests), against float64 of the same rounded inputs, for every tensor.
TOL = {"fp64": 1e-12, "fp32_strict": 1e-5, "fp32": 5e-3, "fp16": 2e-3, "bf16": 1e-2}
# In the fp32 (TF32) mode, y and grad_x beyond TOL pass if every element is within TF32's rounding error of the
# reference (helpers.tf32_within_bound: 8 standard deviations of it; run 438 failed a one-output layer of 476 terms at
# 1.2e-2 of its output, cuDNN having computed that layer in fp32). Their records list them under "tf32_bound", with
# the error over the largest output's sum of term magnitudes.
TF32_TERMS = ("y", "grad_x")
CUDA_MODES = ["fp32", "fp32_strict", "fp16", "bf16", "fp64"]
CPU_MODES = ["fp32_strict", "fp16", "bf16", "fp64"]


def channels(rng: random.Random) -> int:
    """Channels per group: small (1-8), odd mid-size (17-199) or round (32-512)."""
    r = rng.random()
    if r < 0.35:
        return rng.randint(1, 8)
    if r < 0.65:
        return rng.randrange(17, 201, 2)
    return rng.choice([32, 64, 96, 128, 256, 512])


def draw_config(rng: random.Random, max_elems: int, max_flops: float) -> dict:
    """A random layer whose x, w and y stay within max_elems elements and whose forward within max_flops."""
    while True:
        if rng.random() < 0.12:  # depthwise (groups = Cin = Cout) or a channel multiplier
            g, cin_g, cout_g = channels(rng), 1, rng.choice([1, 1, 1, 2, 3])
        else:
            g, cin_g, cout_g = rng.choice([1, 1, 1, 1, 2, 3, 4, 8]), channels(rng), channels(rng)
        k = rng.randint(1, 16)
        s = rng.choice([1, 1, 1, 2, 2, 2, 3, 4, 4, 5, 6, 7, 8])
        d = 1 if rng.random() < 0.8 else rng.randint(2, 5)
        c = dict(N=rng.randint(1, 4), Cin=g * cin_g, Cout=g * cout_g, K=k, L=1, stride=s, padding=rng.randint(0, k * d),
                 output_padding=rng.randint(0, max(s, d) - 1), groups=g, dilation=d, bias=rng.random() < 0.6,
                 unbatched=rng.random() < 0.08)
        if c["unbatched"]:
            c["N"] = 1
        if c["Cin"] * cout_g * k > max_elems:
            continue
        lout_max = max_elems // (c["N"] * c["Cout"])
        lmax = min(max_elems // (c["N"] * c["Cin"]),
                   (lout_max + 2 * c["padding"] - d * (k - 1) - c["output_padding"] - 1) // s + 1,
                   int(max_flops // (2 * c["N"] * c["Cin"] * cout_g * k)))
        if lmax < 1:
            continue
        r = rng.random()
        if r < 0.08:
            c["L"] = 1
        elif r < 0.5:
            c["L"] = rng.randint(max(1, lmax // 4), lmax)
        else:
            c["L"] = int(math.exp(rng.uniform(0, math.log(lmax))))
        if rng.random() < 0.3:
            c["L"] |= 1  # odd length: rows of x and y not 16-byte aligned
        if out_len(c) < 1 and rng.random() < 0.95:  # keep most layers legal; the rest exercise PyTorch's rejection
            c["L"] += -(-(1 - out_len(c)) // s)
        if c["L"] > lmax:
            continue
        c["x_layout"] = rng.choices(["contig", "offset", "sliced", "permuted"], [70, 10, 10, 10])[0]
        c["gy_layout"] = rng.choices(["contig", "offset"], [80, 20])[0]
        c["api"] = rng.choices(["functional", "module", "module_output_size"], [80, 10, 10])[0]
        if c["api"] == "module_output_size" and c["output_padding"] >= s:
            c["api"] = "module"  # nn.ConvTranspose1d's output_size: output_padding < stride only
        return c


def make(shape, dtype, layout, gen, device):
    """Random values drawn in float64 and rounded to dtype, in the asked memory layout."""
    def randn(*sh):
        return torch.randn(*sh, generator=gen, device=device, dtype=torch.float64).to(dtype)
    n = math.prod(shape)
    if layout == "offset":  # one element into its buffer: the data pointer is not 16-byte aligned
        return randn(n + 1)[1:].view(shape)
    if layout == "sliced":  # a window of wider rows: non-contiguous, unaligned start
        return randn(*shape[:-1], shape[-1] + 3)[..., 1:1 + shape[-1]]
    if layout == "permuted":  # all dimensions reversed in memory
        return randn(*reversed(shape)).permute(*reversed(range(len(shape))))
    return randn(*shape)


def describe(c: dict) -> str:
    return " ".join(f"{k}={c[k]}" for k in KEYS + ("unbatched", "x_layout", "gy_layout", "api"))


def run_mode(c: dict, mode: str, device: str, seed: int) -> dict:
    """One case in one precision mode: the record (status pass / fail / skip, errors, tolerance, message)."""
    dtype, tol = DTYPE[mode], TOL[mode]
    rec = dict(config=c, mode=mode, device=device, tol=tol, status="pass", errors={}, message="")
    if device == "cuda":
        torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
    gen = torch.Generator(device=device).manual_seed(seed)
    kw = kwargs(c)
    x = make((c["Cin"], c["L"]) if c["unbatched"] else (c["N"], c["Cin"], c["L"]), dtype, c["x_layout"], gen, device)
    w = make((c["Cin"], c["Cout"] // c["groups"], c["K"]), dtype, "contig", gen, device)
    b = make((c["Cout"],), dtype, "contig", gen, device) if c["bias"] else None
    ins = [t for t in (x, w, b) if t is not None]
    names = ["grad_x", "grad_w", "grad_b"][:len(ins)]
    # The reference: PyTorch in float64 on the same rounded values (copies), on the same device.
    ref_in = [t.detach().to(torch.float64, copy=True).requires_grad_() for t in ins]
    try:
        r = F.conv_transpose1d(ref_in[0], ref_in[1], ref_in[2] if b is not None else None, **kw)
        gy = make(tuple(r.shape), dtype, c["gy_layout"], gen, device)
        ref_out = [r.detach()] + list(torch.autograd.grad(r, ref_in, gy.double()))
    except Exception as e:  # PyTorch rejects the layer (or cannot compute it): nothing to compare
        try:
            convt1d.conv_transpose1d(x, w, b, **kw)
            lib = "convt1d accepts it"
        except Exception:
            lib = "convt1d rejects it too"
        rec.update(status="skip", message=f"pytorch: {type(e).__name__}: {str(e).splitlines()[0]} ({lib})")
        return rec
    leaves = [t.detach().requires_grad_() for t in ins]  # same storage, strides and offset as x, w, b

    def library():
        if c["api"] == "functional":
            y = convt1d.conv_transpose1d(leaves[0], leaves[1], leaves[2] if b is not None else None, **kw)
            return y, leaves
        by_size = c["api"] == "module_output_size"
        m = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], c["stride"], c["padding"],
                                    0 if by_size else c["output_padding"], c["groups"], c["bias"], c["dilation"],
                                    device=device, dtype=dtype)
        with torch.no_grad():
            m.weight.copy_(w)
            if b is not None:
                m.bias.copy_(b)
        xl = leaves[0]
        y = m(xl, output_size=[r.shape[-1]]) if by_size else m(xl)
        return y, [xl] + list(m.parameters())

    def step():
        y, grad_of = library()
        return [y.detach()] + list(torch.autograd.grad(y, grad_of, gy))

    try:
        got = step()
        if device == "cuda":
            torch.cuda.synchronize()  # an asynchronous CUDA error belongs to this case
    except Exception as e:
        rec.update(status="fail", message=f"convt1d raised {type(e).__name__}: {(str(e) or '?').splitlines()[0]}")
        return rec

    def tf32_scales(name):
        """What TF32's error in y or grad_x scales with (float64): the same product sums over |x|, |w|, |grad_y|
        and over their squares (helpers.tf32_within_bound)."""
        out = []
        for p in (1, 2):
            xa, wa = (t.detach().abs().pow(p).requires_grad_() for t in ref_in[:2])
            ya = F.conv_transpose1d(xa, wa, None, **kw)
            out.append(ya.detach() if name == "y" else torch.autograd.grad(ya, xa, gy.double().abs().pow(p))[0])
        return out

    problems = []
    for name, a, e in zip(["y"] + names, got, ref_out):
        if a.shape != e.shape or a.dtype != dtype:
            problems.append(f"{name} is {a.dtype} {list(a.shape)}, expected {dtype} {list(e.shape)}")
            rec["errors"][name] = None
            continue
        err = rel_err(a, e) if torch.isfinite(a).all() else float("inf")
        rec["errors"][name] = err
        if not err <= tol and mode == "fp32" and name in TF32_TERMS and math.isfinite(err):
            # TF32 rounds the operands, so its error scales with the terms, not with the result: where they cancel
            # (few outputs), accept an output that is within TF32's rounding bound element by element.
            n_terms = (c["Cin"] if name == "y" else c["Cout"]) // c["groups"] * c["K"]
            mag, sumsq = tf32_scales(name)
            if tf32_within_bound(a, e, mag, sumsq, n_terms):
                err_t = (a.double().cpu() - e.cpu()).abs().max().item() / max(mag.abs().max().item(), 1e-300)
                rec.setdefault("tf32_bound", {})[name] = err_t
                continue
        if not err <= tol:
            problems.append(f"{name} rel err {err:.3g} > {tol:g}")
    if problems:
        rec.update(status="fail", message="; ".join(problems))
        try:  # PyTorch's own error in this mode on the same values, for scale (cuDNN on the GPU)
            tin = [t.detach().clone().requires_grad_() for t in ins]
            ty = F.conv_transpose1d(tin[0], tin[1], tin[2] if b is not None else None, **kw)
            tout = [ty.detach()] + list(torch.autograd.grad(ty, tin, gy))
            rec["torch_errors"] = {n: rel_err(t, e) for n, t, e in zip(["y"] + names, tout, ref_out)}
        except Exception as e:
            rec["torch_errors"] = {"error": str(e).splitlines()[0] if str(e) else type(e).__name__}
        if device == "cuda":  # which of the library's kernels ran (PyTorch's own at:: kernels left out)
            try:
                rec["kernels"] = sorted({n for n in kernels_run(step) if "at::" not in n})
            except Exception as e:
                rec["kernels"] = [f"(profiler failed: {e})"]
    return rec


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=300, help="number of random configurations")
    ap.add_argument("--case", type=int, default=None, help="run only this case index (same seed)")
    ap.add_argument("--start", type=int, default=0, help="first case index (cases are independent: resume a run)")
    ap.add_argument("--time-budget", type=float, default=240.0, help="seconds after which no new case starts")
    ap.add_argument("--device", choices=["cpu", "cuda"], default=None, help="default: cuda when convt1d can use it")
    ap.add_argument("--modes", default=None, help="comma-separated subset of the device's modes")
    ap.add_argument("--all-modes-frac", type=float, default=0.1, help="fraction of cases run in every mode")
    ap.add_argument("--max-elems", type=int, default=None, help="elements per tensor (default 2e6 cuda, 2e5 cpu)")
    ap.add_argument("--max-flops", type=float, default=None, help="forward FLOPs per case (default 2e9 cuda, 5e7 cpu)")
    ap.add_argument("--out", default=None, help="JSON report: a list of records, one per (case, mode)")
    a = ap.parse_args()
    device = a.device or ("cuda" if torch.cuda.is_available() and convt1d.has_cuda() else "cpu")
    if device == "cuda" and not (torch.cuda.is_available() and convt1d.has_cuda()):
        ap.error("--device cuda needs a GPU and a CUDA build of libconvt1d")
    modes = CUDA_MODES if device == "cuda" else CPU_MODES
    if a.modes:
        bad = [m for m in a.modes.split(",") if m not in modes]
        if bad:
            ap.error(f"modes {bad} not among {modes} on {device}")
        modes = a.modes.split(",")
    max_elems = a.max_elems or (2_000_000 if device == "cuda" else 200_000)
    max_flops = a.max_flops or (2e9 if device == "cuda" else 5e7)
    gpu = f", {torch.cuda.get_device_name()}" if device == "cuda" else ""
    indices = [a.case] if a.case is not None else range(a.start, a.count)
    print(f"fuzz: seed {a.seed}, {len(indices)} cases on {device}{gpu}, modes {modes}, torch {torch.__version__}, "
          f"library {convt1d.library_path}", flush=True)
    records, t0, last_note = [], time.time(), 0.0
    for i in indices:
        if time.time() - t0 > a.time_budget:
            print(f"fuzz: time budget {a.time_budget:g} s reached after {len(set(r['case'] for r in records))} cases")
            break
        rng = random.Random(a.seed * 1_000_003 + i)  # every case on its own: --case reproduces one
        c = draw_config(rng, max_elems, max_flops)
        case_modes = modes if rng.random() < a.all_modes_frac else [rng.choice(modes)]
        for mode in case_modes:
            start = time.time()  # the tensors' seed: the case's and the mode's, whatever else runs
            rec = run_mode(c, mode, device, (a.seed * 1_000_003 + i) * 8 + list(DTYPE).index(mode))
            rec.update(case=i, seed=a.seed, seconds=round(time.time() - start, 4))
            if rec["status"] == "fail":
                errs = " ".join(f"{k}={v:.3g}" if v is not None else f"{k}=?" for k, v in rec["errors"].items())
                print(f"FAIL case {i} {mode}: {describe(c)} | {errs} tol={rec['tol']:g} | {rec['message']}"
                      + (" | torch: " + " ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                                                 for k, v in rec["torch_errors"].items()) if rec.get("torch_errors") else "")
                      + (f" | kernels: {', '.join(rec['kernels'])}" if rec.get("kernels") else "")
                      + f" | again: --seed {a.seed} --case {i} --modes {mode}", flush=True)
            records.append(rec)
        if device == "cuda":
            try:
                torch.cuda.synchronize()
            except Exception as e:  # the context is gone: every later case would fail for the same reason
                print(f"fuzz: CUDA context lost after case {i} ({e}); stopping")
                break
        if time.time() - last_note > 30:
            last_note = time.time()
            print(f"fuzz: case {i}, {time.time() - t0:.0f} s", flush=True)
    counts = {s: sum(r["status"] == s for r in records) for s in ("pass", "fail", "skip")}
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(records, fh, indent=1)
    nb = sum("tf32_bound" in r for r in records)
    print(f"fuzz: {counts['pass']} passed ({nb} by TF32's bound), {counts['fail']} failed, {counts['skip']} skipped "
          f"({time.time() - t0:.1f} s)")
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
