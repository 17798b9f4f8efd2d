"""Probe: grad_input and grad_weight of one layer on two streams, each kernel's persistent grid limited to part of
the SMs (CONVT1D_SM_LIMIT, read at launch), against the two one after the other on the whole GPU. Each gradient
alone reaches 65-79% of the copy bandwidth on KernelBench 64 (run 192): if neither is DRAM-bound, sharing the GPU
may finish both sooner.

    python dev/python/concurrent_bwd_probe.py [shape] [modes]   (default kernelbench_64 fp32,bf16)
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402,F401
from probe_layer import layer_args, layer_tensors  # noqa: E402

name = sys.argv[1] if len(sys.argv) > 1 else "kernelbench_64"
modes = (sys.argv[2] if len(sys.argv) > 2 else "fp32,bf16").split(",")
c, args = layer_args(name)
bwd = torch.ops.convt1d.conv_transpose1d_backward.default
sms = torch.cuda.get_device_properties(0).multi_processor_count
s0 = torch.cuda.current_stream()
s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()


def timed(fn, reps=15):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(s0)
        fn()
        b.record(s0)
        torch.cuda.synchronize()
        ts.append(a.elapsed_time(b))
    return sorted(ts)[len(ts) // 2]


for mode in modes:
    x, w, gy = layer_tensors(c, args, mode)

    def seq():
        os.environ.pop("CONVT1D_SM_LIMIT", None)
        bwd(gy, x, w, *args, [True, True, False])

    def conc(n_in, n_w):
        def fn():
            s1.wait_stream(s0)
            s2.wait_stream(s0)
            os.environ["CONVT1D_SM_LIMIT"] = str(n_in)
            with torch.cuda.stream(s1):
                bwd(gy, x, w, *args, [True, False, False])
            os.environ["CONVT1D_SM_LIMIT"] = str(n_w)
            with torch.cuda.stream(s2):
                bwd(gy, x, w, *args, [False, True, False])
            os.environ.pop("CONVT1D_SM_LIMIT", None)
            s0.wait_stream(s1)
            s0.wait_stream(s2)
        return fn

    def alone(mask, n):
        def fn():
            os.environ["CONVT1D_SM_LIMIT"] = str(n)
            bwd(gy, x, w, *args, mask)
            os.environ.pop("CONVT1D_SM_LIMIT", None)
        return fn

    t = {"seq": timed(seq)}
    for n_in in (sms // 2, sms * 2 // 3, sms // 3):
        t[f"conc{n_in}/{sms - n_in}"] = timed(conc(n_in, sms - n_in))
    t[f"conc{sms}/{sms}"] = timed(conc(sms, sms))
    t[f"gi@{sms // 2}"] = timed(alone([True, False, False], sms // 2))
    t[f"gw@{sms // 2}"] = timed(alone([False, True, False], sms // 2))
    t[f"gi@{sms}"] = timed(alone([True, False, False], sms))
    t[f"gw@{sms}"] = timed(alone([False, True, False], sms))
    print(f"{name} {mode}: " + ", ".join(f"{k} {v:.3f}" for k, v in t.items()) + " ms", flush=True)
