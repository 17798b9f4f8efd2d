"""Write-side ceilings next to KernelBench 79's fused forward: a device-to-device copy, a pure write (fill_) and
a read-only pass (sum) of y's size, and the fused forward itself in one mode, all do_bench medians in one process.
Run under ncu with --probe-only to profile one forward (the kernel after two warm-up calls).

    python dev/python/probe_write_bw.py [--mode fp32|fp32_strict|bf16] [--probe-only]
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d.bench import time_kernel  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="fp32")
ap.add_argument("--probe-only", action="store_true")
a = ap.parse_args()
dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "bf16": torch.bfloat16}[a.mode]
torch.backends.cudnn.allow_tf32 = a.mode != "fp32_strict"
N, Cin, Cout, K, L = 16, 32, 64, 3, 131072
x = torch.randn(N, Cin, L, device="cuda", dtype=dt)
w = torch.randn(Cin, Cout, K, device="cuda", dtype=dt) * 0.1
f = lambda: convt1d.conv_transpose1d(x, w, None, 2, 1, 0, 1, 2)  # noqa: E731
if a.probe_only:
    for _ in range(3):
        f()
    torch.cuda.synchronize()
    sys.exit(0)
y = f()
src = torch.empty_like(y).normal_()
gb = y.numel() * y.element_size() / 1e9
res = {"copy y": time_kernel(lambda: y.copy_(src), torch.device("cuda")),
       "fill y": time_kernel(lambda: y.fill_(1.5), torch.device("cuda")),
       "sum y": time_kernel(lambda: src.sum(), torch.device("cuda")),
       "fused forward": time_kernel(f, torch.device("cuda"))}
xb = x.numel() * x.element_size() / 1e9
for k, ms in res.items():
    nb = {"copy y": 2 * gb, "fill y": gb, "sum y": gb, "fused forward": gb + xb}[k]
    print(f"{a.mode:12s} {k:14s} {ms:7.3f} ms  {nb / ms:6.2f} TB/s ({nb:.2f} GB)")
