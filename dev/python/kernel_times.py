"""Kernels one call runs and their GPU times (torch.profiler), for one suite shape and one op:

    python dev/python/kernel_times.py kernelbench_64 fwd|bwd_input|bwd_weight fp32|fp32_strict|fp16|bf16
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402,F401

name, kind, mode = sys.argv[1:4]
c = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}[name]
dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[mode]
torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], device="cuda", dtype=dt) * 0.1
args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
gy = torch.randn_like(torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args))
mask = [kind == "bwd_input", kind == "bwd_weight", False]


def call():
    if kind == "fwd":
        torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args)
    else:
        torch.ops.convt1d.conv_transpose1d_backward.default(gy, x, w, *args, mask)


call()
torch.cuda.synchronize()
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
    call()
    torch.cuda.synchronize()
for e in prof.events():
    if e.device_type == torch.autograd.DeviceType.CUDA:
        print(f"{name} {kind} {mode} {e.device_time / 1e3:8.3f} ms  {e.name[:110]}")
