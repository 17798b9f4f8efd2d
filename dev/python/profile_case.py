"""Run one suite shape's forward or one gradient a few times, the last call inside cudaProfilerStart/Stop,
for Nsight Compute (--profile-from-start off). Used by scripts/gpu_profile.sh. With "times" after the mode:
the last call under torch.profiler instead, printing each kernel it ran, its GPU time and its start and end
(ms from the first kernel's start: kernels on a side stream show their overlap).

    python dev/python/profile_case.py kernelbench_64 fwd|bwd_input|bwd_weight fp32|fp32_strict|fp16|bf16 [times]
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
y = torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args)
gy = torch.randn_like(y)
mask = [kind == "bwd_input", kind == "bwd_weight", False]
bwd = torch.ops.convt1d.conv_transpose1d_backward.default


def call():
    if kind == "fwd":
        torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args)
    else:
        bwd(gy, x, w, *args, mask)


for _ in range(3):
    call()
torch.cuda.synchronize()
if sys.argv[4:5] == ["times"]:
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        call()
        torch.cuda.synchronize()
    ev = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    t0 = min(e.time_range.start for e in ev) if ev else 0
    for e in ev:  # GPU time, then start and end from the first kernel's start (overlap of side-stream kernels)
        print(f"{name} {kind} {mode} {e.device_time / 1e3:8.3f} ms  [{(e.time_range.start - t0) / 1e3:7.3f}, "
              f"{(e.time_range.end - t0) / 1e3:7.3f}] {e.name[:100]}")
    sys.exit(0)
torch.cuda.cudart().cudaProfilerStart()
call()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
