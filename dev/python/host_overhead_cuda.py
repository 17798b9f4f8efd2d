"""Where a latency-bound CUDA call spends its time: host microseconds per call, layer by layer, next to
the GPU time per call, for the latency shapes of the suite (and cuDNN's module for comparison).

    python dev/python/host_overhead_cuda.py [--shapes kernelbench_64_small,...] [--out host.json]

Host time: a burst of calls short enough that the launch queue never fills (so the host never waits on
the GPU), divided by the count; min and median over bursts. "burst gpu": CUDA events around a burst
after a sync, per call - about max(host, GPU time), i.e. what back-to-back calls cost.
"""
import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d import _lib, _ops  # noqa: E402


def host_us(fn, n=50, bursts=31):
    """(min, median) over bursts of the host microseconds per call."""
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    per = []
    for _ in range(bursts):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        per.append((time.perf_counter() - t0) / n * 1e6)
        torch.cuda.synchronize()
    per.sort()
    return per[0], per[len(per) // 2]


def gpu_us(fn, n=100, bursts=9):
    for _ in range(20):
        fn()
    out = []
    for _ in range(bursts):
        torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(n):
            fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) * 1e3 / n)
    out.sort()
    return out[len(out) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="kernelbench_64_small,kernelbench_74_small,kernelbench_79_small,single_utterance_x8")
    ap.add_argument("--out")
    args = ap.parse_args()
    probs = {c["name"]: c for c in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}
    dev = torch.device("cuda")
    res = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "shapes": {}}
    for name in args.shapes.split(","):
        c = probs[name]
        kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"],
                  groups=c["groups"], dilation=c["dilation"])
        x = torch.randn(c["N"], c["Cin"], c["L"], device=dev)
        m_ours = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device=dev, **kw)
        m_ref = torch.nn.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device=dev, **kw)
        w, b = m_ours.weight.detach(), (m_ours.bias.detach() if c["bias"] else None)
        prm, lout = _lib.params((c["N"], c["Cin"], c["Cout"], c["L"], c["K"], c["stride"], c["padding"],
                                 c["output_padding"], c["dilation"], c["groups"]))
        y = torch.empty(c["N"], c["Cout"], lout, device=dev)
        stream = torch.cuda.current_stream().cuda_stream
        ptrs = (x.data_ptr(), w.data_ptr(), None if b is None else b.data_ptr(), y.data_ptr())
        raw = _lib.lib.convt1d_forward_cuda
        op = torch.ops.convt1d.conv_transpose1d.default
        layers = {
            "ctypes: no-op C call (convt1d_has_cuda)": lambda: _lib.lib.convt1d_has_cuda(),
            "ctypes: convt1d_forward_cuda (preallocated y)": lambda: raw(prm, _lib.F32, _lib.MATH_ALLOW_TF32, *ptrs, stream),
            "torch.empty of y": lambda: torch.empty(c["N"], c["Cout"], lout, device=dev),
            "_ops.forward_impl": lambda: _ops.forward_impl(x, w, b, c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"]),
            "torch.ops.convt1d.conv_transpose1d": lambda: op(x, w, b, c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"]),
            "convt1d.ConvTranspose1d (no_grad)": lambda: m_ours(x),
            "nn.ConvTranspose1d (no_grad)": lambda: m_ref(x),
        }
        r = {}
        with torch.no_grad():
            for k, fn in layers.items():
                hmin, hmed = host_us(fn)
                r[k] = {"host_us_min": round(hmin, 2), "host_us_median": round(hmed, 2), "gpu_us": round(gpu_us(fn), 2)}
                print(f"{name:24s} {k:48s} host min {hmin:7.2f} med {hmed:7.2f} us   burst gpu {r[k]['gpu_us']:8.2f} us",
                      flush=True)
        res["shapes"][name] = r
    if args.out:
        json.dump(res, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
