"""torch.profiler view of one latency shape's backward: which kernels run, their GPU time, and the host
time around them, for our op and for aten's (cuDNN), per dtype.

    python dev/python/profile_latency_bwd.py [shape] [dtypes]     (default kernelbench_79_small fp32,bf16)
"""
import json
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402,F401

name = sys.argv[1] if len(sys.argv) > 1 else "kernelbench_79_small"
dts = (sys.argv[2] if len(sys.argv) > 2 else "fp32,bf16").split(",")
c = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}[name]
args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
for dn in dts:
    dt = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[dn]
    x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
    w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], device="cuda", dtype=dt)
    y = torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args)
    gy = torch.randn_like(y)
    ours = lambda: torch.ops.convt1d.conv_transpose1d_backward.default(gy, x, w, *args, [True, True, False])  # noqa: E731
    theirs = lambda: torch.ops.aten.convolution_backward(gy, x, w, None, [args[0]], [args[1]], [args[4]], True,  # noqa: E731
                                                          [args[2]], args[3], [True, True, False])
    for tag, fn in (("convt1d", ours), ("aten", theirs)):
        for _ in range(20):
            fn()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                fn()
            torch.cuda.synchronize()
        print(f"===== {name} {dn} {tag} (20 calls)")
        print(prof.key_averages().table(sort_by="self_cuda_time_total", row_limit=8, max_name_column_width=60))
