"""Host cost of one latency shape's training step, convt1d side: cProfile of module forward + backward
(functions by own time), then the per-call enqueue time of each C entry point called directly through
ctypes with preallocated buffers (what the library itself costs the host, Python binding included).

    python dev/python/host_profile.py [shape] [mode]
"""
import cProfile
import json
import os
import pstats
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d import _lib, _ops  # noqa: E402

suite = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}
name = sys.argv[1] if len(sys.argv) > 1 else "kernelbench_64_small"
mode = sys.argv[2] if len(sys.argv) > 2 else "fp32"
c = suite[name]
dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[mode]
torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
dev = torch.device("cuda")
kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"], groups=c["groups"],
          dilation=c["dilation"])
m = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device=dev, dtype=dt, **kw)
ref = torch.nn.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device=dev, dtype=dt, **kw)
x = torch.randn(c["N"], c["Cin"], c["L"], device=dev, dtype=dt).requires_grad_()
gy = torch.randn_like(m(x))


def step():
    m(x).backward(gy)


def enqueue_us(fn, n=2000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = 1e9
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n // 5):
            fn()
        best = min(best, (time.perf_counter() - t0) / (n // 5) * 1e6)
        torch.cuda.synchronize()
    return best


print(f"{name} {mode}: step ours {enqueue_us(step, 1000):.1f} us, cudnn {enqueue_us(lambda: ref(x).backward(gy), 1000):.1f} us")
for _ in range(50):
    step()
torch.cuda.synchronize()
pr = cProfile.Profile()
pr.enable()
for _ in range(500):
    step()
torch.cuda.synchronize()
pr.disable()
pstats.Stats(pr).sort_stats("tottime").print_stats(18)

# The C entry points alone (ctypes, preallocated buffers, cached params).
xd, w = x.detach(), m.weight.detach()
b = m.bias.detach() if m.bias is not None else None
a = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
p, lout = _lib.params((c["N"], c["Cin"], c["Cout"], c["L"], c["K"], c["stride"], c["padding"],
                       c["output_padding"], c["dilation"], c["groups"]))
code = _ops.DTYPES[dt]
math = _ops._math()
y = torch.empty(c["N"], c["Cout"], lout, device=dev, dtype=dt)
gx, gw = torch.empty_like(xd), torch.empty_like(w)
gb = torch.empty(c["Cout"], device=dev, dtype=dt)
nbytes = _lib.workspace_size(p, code)
ws = torch.empty(max(nbytes, 1), dtype=torch.uint8, device=dev)
s = _ops._raw_stream(0)
L = _lib.lib
tests = {
    "C forward": lambda: L.convt1d_forward_cuda(p, code, math, xd.data_ptr(), w.data_ptr(), None if b is None else b.data_ptr(), y.data_ptr(), s),
    "C backward_input": lambda: L.convt1d_backward_input_cuda(p, code, math, gy.data_ptr(), w.data_ptr(), gx.data_ptr(), s),
    "C backward_weight": lambda: L.convt1d_backward_weight_cuda(p, code, math, gy.data_ptr(), xd.data_ptr(), gw.data_ptr(), ws.data_ptr(), nbytes, s),
    "C backward (one call, x+w)": lambda: L.convt1d_backward_cuda(p, code, math, gy.data_ptr(), xd.data_ptr(), w.data_ptr(), gx.data_ptr(), gw.data_ptr(), None, s),
    "C backward_bias": lambda: L.convt1d_backward_bias_cuda(p, code, gy.data_ptr(), gb.data_ptr(), s),
    "C workspace_size": lambda: _lib.workspace_size(p, code),
    "py forward_impl": lambda: _ops.forward_impl(xd, w, b, *a),
    "py backward_impl x,w,b": lambda: _ops.backward_impl(gy, xd, w, *a, [True, True, b is not None]),
    "aten convolution_backward x,w,b": lambda: torch.ops.aten.convolution_backward(
        gy, xd, w, [c["Cout"]] if b is not None else None, [a[0]], [a[1]], [a[4]], True, [a[2]], a[3],
        [True, True, b is not None]),
    "torch.empty_like(x)": lambda: torch.empty_like(xd),
    "raw stream": lambda: _ops._raw_stream(0),
    "current_device": lambda: torch.cuda.current_device(),
}
with torch.no_grad():
    for k, fn in tests.items():
        print(f"  {k:34s} {enqueue_us(fn):7.2f} us/call (enqueue)")
