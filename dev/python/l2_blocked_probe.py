"""Probe for an L2-blocked backward (design note, Session 18 lead): does grad_y stay in the 50 MB L2 between the
grad_input and the grad_weight of one batch chunk? Times, on one shape (KernelBench 64 by default), the library's
backward of both gradients in one call, each gradient alone, and the same two gradients taken chunk by chunk of the
batch (c samples per chunk; grad_weight summed over chunks in fp32 from Python), in both orders. If the chunked sum
beats the two whole-batch gradients, one pass over grad_y per chunk pays and a fused launch is worth building.

    python dev/python/l2_blocked_probe.py [shape] [modes] [chunks]   (default kernelbench_64 fp32,bf16 1,2,4)
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402,F401
from probe_layer import layer_args, layer_tensors  # noqa: E402
from convt1d.bench import time_kernel  # noqa: E402

name = sys.argv[1] if len(sys.argv) > 1 else "kernelbench_64"
modes = (sys.argv[2] if len(sys.argv) > 2 else "fp32,bf16").split(",")
chunks = [int(v) for v in (sys.argv[3] if len(sys.argv) > 3 else "1,2,4").split(",")]
c, args = layer_args(name)
bwd = torch.ops.convt1d.conv_transpose1d_backward.default
dev = torch.device("cuda")
for mode in modes:
    x, w, gy = layer_tensors(c, args, mode)
    both = lambda: bwd(gy, x, w, *args, [True, True, False])  # noqa: E731
    gi = lambda: bwd(gy, x, w, *args, [True, False, False])  # noqa: E731
    gw = lambda: bwd(gy, x, w, *args, [False, True, False])  # noqa: E731

    def chunked(cs, wfirst):
        def fn():
            acc = torch.zeros(w.shape, device="cuda", dtype=torch.float32)
            for n0 in range(0, c["N"], cs):
                g, xs = gy[n0:n0 + cs], x[n0:n0 + cs]
                if wfirst:
                    acc += bwd(g, xs, w, *args, [False, True, False])[1].float()
                    bwd(g, xs, w, *args, [True, False, False])  # grad_x chunk written, then dropped
                else:
                    bwd(g, xs, w, *args, [True, False, False])
                    acc += bwd(g, xs, w, *args, [False, True, False])[1].float()
            return acc
        return fn

    def graphed(fn):
        # One CUDA graph per variant: the chunked loops' host time (two op calls per chunk) stays out of the timing.
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            fn()
        torch.cuda.current_stream().wait_stream(s)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            fn()
        return g.replay

    t = {"both": time_kernel(graphed(both), dev, budget_ms=300), "grad_input": time_kernel(graphed(gi), dev, budget_ms=300),
         "grad_weight": time_kernel(graphed(gw), dev, budget_ms=300)}
    for cs in chunks:
        for wf in (False, True):
            t[f"chunk{cs}_{'w' if wf else 'i'}first"] = time_kernel(graphed(chunked(cs, wf)), dev, budget_ms=300)
    ref_w = both()[1].float()
    err = ((chunked(chunks[0], True)() - ref_w).norm() / ref_w.norm()).item()
    print(f"{name} {mode}: " + ", ".join(f"{k} {v:.3f}" for k, v in t.items()) + f" ms; chunked grad_w rel diff {err:.1e}")
