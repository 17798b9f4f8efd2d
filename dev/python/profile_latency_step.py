"""torch.profiler view of a latency shape's whole training step (module forward + autograd backward, as
`python -m convt1d.bench --backward` times it): per kernel GPU time for convt1d.ConvTranspose1d and for
torch.nn.ConvTranspose1d (cuDNN), and the wall time per step of back-to-back steps (GPU-bound or host-bound?).

    python dev/python/profile_latency_step.py [shape,shape] [modes]   (modes: fp32,fp32_strict,fp16,bf16)
"""
import json
import os
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402

names = (sys.argv[1] if len(sys.argv) > 1 else "kernelbench_74_small").split(",")
modes = (sys.argv[2] if len(sys.argv) > 2 else "fp32,fp32_strict").split(",")
suite = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}
for name in names:
    c = suite[name]
    kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"], groups=c["groups"],
              dilation=c["dilation"], bias=c["bias"])
    for mode in modes:
        dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[mode]
        torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
        x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt).requires_grad_()
        for tag, cls in (("convt1d", convt1d.ConvTranspose1d), ("cudnn", torch.nn.ConvTranspose1d)):
            m = cls(c["Cin"], c["Cout"], c["K"], device="cuda", dtype=dt, **kw)
            gy = torch.randn_like(m(x))

            def step():
                m(x).backward(gy)
            for _ in range(30):
                step()
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(200):
                step()
            torch.cuda.synchronize()
            wall = (time.perf_counter() - t0) / 200 * 1e6
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(20):
                    step()
                torch.cuda.synchronize()
            rows = [(e.key, e.device_time_total / 20, e.count // 20) for e in prof.key_averages() if e.device_time_total > 0]
            gpu = sum(r[1] for r in rows)
            print(f"== {name} {mode} {tag}: wall {wall:.1f} us/step, GPU {gpu:.1f} us/step")
            for k, t, n in sorted(rows, key=lambda r: -r[1])[:8]:
                print(f"   {t:8.1f} us  x{n}  {k[:110]}")
