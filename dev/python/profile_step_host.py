"""Host side of one latency shape's training step (module forward + backward()), both sides: the wall time per
step, then torch.profiler's CPU events (autograd nodes on the engine's device thread included) averaged per step,
so the two sides' nodes, allocations and launches can be compared line by line.

    python dev/python/profile_step_host.py [shape] [mode] [steps]
"""
import json
import os
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402

suite = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}
name = sys.argv[1] if len(sys.argv) > 1 else "kernelbench_64_small"
mode = sys.argv[2] if len(sys.argv) > 2 else "fp32"
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 200
c = suite[name]
dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[mode]
torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"], groups=c["groups"],
          dilation=c["dilation"])
sides = {"convt1d": convt1d.ConvTranspose1d, "cudnn": torch.nn.ConvTranspose1d}
x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt).requires_grad_()
for side, cls in sides.items():
    m = cls(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device="cuda", dtype=dt, **kw)
    gy = torch.randn_like(m(x))

    def step():
        m(x).backward(gy)

    for _ in range(50):
        step()
    torch.cuda.synchronize()
    best = 1e9
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t0) / steps * 1e6)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            step()
        torch.cuda.synchronize()
    print(f"== {name} {mode} {side}: {best:.1f} us/step (best of 5 x {steps}); profiler CPU events per step:")
    rows = sorted(prof.key_averages(), key=lambda e: -e.cpu_time_total)[:22]
    for e in rows:
        print(f"  {e.cpu_time_total / steps:8.1f} us total {e.self_cpu_time_total / steps:8.1f} us self  x{e.count / steps:4.1f}  {e.key[:90]}")
