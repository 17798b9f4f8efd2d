"""Where a latency shape's per-call time goes, convt1d vs cuDNN: per kind (fwd, bwd_input, bwd_weight,
bwd_bias, fwd_bwd through the modules) the per-call time of back-to-back calls, the host time to
enqueue them (no sync), and the kernels one call launches with their GPU times (torch.profiler).
If enqueue ~= per-call the side is host-bound; if the kernels' sum ~= per-call it is GPU-bound.

    python dev/python/latency_probe.py [shape,...] [mode,...]
"""
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d import _ops  # noqa: E402

suite = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}
shapes = sys.argv[1].split(",") if len(sys.argv) > 1 else [n for n, c in suite.items() if "latency" in c.get("tags", [])]
modes = sys.argv[2].split(",") if len(sys.argv) > 2 else ["fp32", "fp32_strict", "bf16"]
dev = torch.device("cuda")


def per_call(fn, n=300):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    return (t2 - t0) / n * 1e6, (t1 - t0) / n * 1e6


def kernels(fn):
    fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    out = []
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            out.append((e.device_time, e.name[:70]))
    return out


for name in shapes:
    c = suite[name]
    for mode in modes:
        dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[mode]
        torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
        kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"],
                  groups=c["groups"], dilation=c["dilation"])
        ours_m = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device=dev, dtype=dt, **kw)
        ref_m = torch.nn.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device=dev, dtype=dt, **kw)
        ref_m.load_state_dict(ours_m.state_dict())
        x = torch.randn(c["N"], c["Cin"], c["L"], device=dev, dtype=dt)
        xg = x.clone().requires_grad_()
        w = ours_m.weight.detach()
        y = F.conv_transpose1d(x, w, None, **kw)
        gy = torch.randn_like(y)
        a = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
        bop = torch.ops.convt1d.conv_transpose1d_backward.default

        def aten_bwd(mask):
            return torch.ops.aten.convolution_backward(gy, x, w, [c["Cout"]] if mask[2] else None, [a[0]], [a[1]],
                                                       [a[4]], True, [a[2]], a[3], mask)
        cases = {
            "fwd": (lambda: ours_m(x), lambda: ref_m(x), torch.no_grad),
            "fwd_bwd": (lambda: ours_m(xg).backward(gy), lambda: ref_m(xg).backward(gy), torch.enable_grad),
        }
        for kind, mask in (("bwd_input", [True, False, False]), ("bwd_weight", [False, True, False]),
                           ("bwd_bias", [False, False, True])):
            cases[kind] = ((lambda m=mask: bop(gy, x, w, *a, m)), (lambda m=mask: aten_bwd(m)), torch.no_grad)
        cases["bwd_input_impl"] = (lambda: _ops.backward_impl(gy, x, w, *a, [True, False, False]), None, torch.no_grad)
        cases["bwd_weight_impl"] = (lambda: _ops.backward_impl(gy, x, w, *a, [False, True, False]), None, torch.no_grad)
        cases["fwd_impl"] = (lambda: _ops.forward_impl(x, w, None, *a), None, torch.no_grad)
        for kind, (fo, fr, ctx) in cases.items():
            with ctx():
                po, eo = per_call(fo)
                ko = kernels(fo)
                line = f"{name:22s} {mode:11s} {kind:16s} ours {po:7.1f} us/call (enqueue {eo:6.1f})"
                if fr is not None:
                    pr_, er = per_call(fr)
                    kr = kernels(fr)
                    line += f" | cudnn {pr_:7.1f} (enqueue {er:6.1f})  ratio {pr_ / po:5.2f}"
                print(line)
                print("    ours  kernels: " + "; ".join(f"{t:.1f}us {n}" for t, n in ko))
                if fr is not None:
                    print("    cudnn kernels: " + "; ".join(f"{t:.1f}us {n}" for t, n in kr))
        sys.stdout.flush()
