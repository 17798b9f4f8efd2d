"""Host time of one forward call, by layer: the module, the C++ op, the bare C call (ctypes, y preallocated), and the
bare C call with 300 more environment variables (the library reads its CONVT1D_* switches with getenv at every call,
each a scan of the environment). Calls are issued back to back after a synchronization, 40 at a time, so the time is
the host's (the GPU queue absorbs them).

    python dev/python/host_probe.py [--shape single_utterance_x8] [--dtype fp16]
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d import _lib, _ops  # noqa: E402
from convt1d.bench import PROBLEMS  # noqa: E402


def host_us(fn, n=40, reps=60):
    for _ in range(20):
        fn()
    res = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        res.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(res)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="single_utterance_x8")
    ap.add_argument("--dtype", default="fp16")
    args = ap.parse_args()
    c = next(c for c in json.load(open(PROBLEMS))["suite"] if c["name"] == args.shape)
    dt = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[args.dtype]
    kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"], groups=c["groups"],
              dilation=c["dilation"])
    x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
    m = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device="cuda", dtype=dt, **kw)
    mc = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device="cuda", dtype=dt, **kw)
    mc.load_state_dict(m.state_dict())
    mc.cache_packed_weights()
    w, b = m.weight.detach(), m.bias.detach() if m.bias is not None else None
    with torch.no_grad():
        y = m(x)
        mc(x)
    p, _ = _lib.params((c["N"], c["Cin"], c["Cout"], c["L"], c["K"], c["stride"], c["padding"], c["output_padding"],
                        c["dilation"], c["groups"]))
    code = _ops.DTYPES[dt]
    stream = torch.cuda.current_stream().cuda_stream
    bp = b.data_ptr() if b is not None else None
    lib = _lib.lib
    math = _lib.MATH_ALLOW_TF32
    rows = {}
    with torch.no_grad():
        rows["nn.ConvTranspose1d module (cuDNN)"] = host_us(lambda: F.conv_transpose1d(x, w, b, **kw))
        rows["convt1d module"] = host_us(lambda: m(x))
        rows["convt1d module, cached"] = host_us(lambda: mc(x))
        rows["C++ op, cached"] = host_us(lambda: _ops.eager_cached_op(x, w, b, c["stride"], c["padding"],
                                                                      c["output_padding"], c["groups"], c["dilation"],
                                                                      mc._wcache.handle))
        rows["torch.empty of y"] = host_us(lambda: torch.empty_like(y))
        rows["ctypes no-op (convt1d_has_cuda)"] = host_us(lambda: lib.convt1d_has_cuda())
        rows["ctypes C forward"] = host_us(lambda: lib.convt1d_forward_cuda(p, code, math, x.data_ptr(), w.data_ptr(),
                                                                            bp, y.data_ptr(), stream))
        fc = lambda: lib.convt1d_forward_cuda_cached(p, code, math, x.data_ptr(), w.data_ptr(), bp,  # noqa: E731
                                                     y.data_ptr(), mc._wcache.handle, stream)
        rows["ctypes C forward, cached"] = host_us(fc)
        fp = lambda: lib.convt1d_forward_cuda(p, code, math, x.data_ptr(), w.data_ptr(), bp, y.data_ptr(),  # noqa: E731
                                              stream)
        # What parts of the C call cost: the register-A attempt (declined at batch 1), one launch more (the pack and
        # the transpose apart), a call with no work (batch 0: the checks only), and torch's own one-kernel launch.
        for var, val, label in (("CONVT1D_WGMMA_RS", "0", "ctypes C forward, no register-A attempt"),
                                ("CONVT1D_WGMMA_PREPASS", "0", "ctypes C forward, pack and transpose apart")):
            os.environ[var] = val
            rows[label] = host_us(fp)
            del os.environ[var]
        p0, _ = _lib.params((0, c["Cin"], c["Cout"], c["L"], c["K"], c["stride"], c["padding"], c["output_padding"],
                             c["dilation"], c["groups"]))
        rows["ctypes C forward, batch 0 (checks only)"] = host_us(
            lambda: lib.convt1d_forward_cuda(p0, code, math, x.data_ptr(), w.data_ptr(), bp, y.data_ptr(), stream))
        rows["torch.cuda._sleep(0) (one launch through torch)"] = host_us(lambda: torch.cuda._sleep(0))
        for i in range(300):
            os.environ[f"HOST_PROBE_PADDING_VARIABLE_{i}"] = "x" * 40
        rows["ctypes C forward, cached, +300 env vars"] = host_us(fc)
    print(f"{torch.cuda.get_device_name()}, {args.shape} {args.dtype}, {len(os.environ) - 300} environment variables")
    for k, v in rows.items():
        print(f"  {k:45s} {v:7.2f} us")


if __name__ == "__main__":
    main()
