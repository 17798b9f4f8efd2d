"""Per-call cost of the Python front on a tiny CPU problem, vs torch.nn.functional.conv_transpose1d.

    python bench/overhead.py [--threads 1] [--out overhead.json]

Each number is the best (min) of several repeats of the mean over many back-to-back calls, which
filters out scheduler noise on a busy machine. "kernel only" is the bare ctypes call into the C
library on preallocated tensors, so (convt1d - kernel only) is the Python front's overhead.
"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import convt1d  # noqa: E402
from convt1d import _lib  # noqa: E402


def per_call_us(fn, n=3000, repeats=7):
    for _ in range(200):
        fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    N, Cin, Cout, K, L, s, p = 1, 4, 4, 3, 16, 2, 1
    x, w, b = torch.randn(N, Cin, L), torch.randn(Cin, Cout, K), torch.randn(Cout)
    prm, lout = _lib.params((N, Cin, Cout, L, K, s, p, 0, 1, 1))
    y = torch.empty(N, Cout, lout)
    ptrs = (x.data_ptr(), w.data_ptr(), b.data_ptr(), y.data_ptr())
    fwd = _lib.lib.convt1d_forward_cpu
    res = {}
    res["kernel only (ctypes call)"] = per_call_us(lambda: fwd(prm, 0, *ptrs, args.threads))
    with torch.no_grad():
        res["F.conv_transpose1d"] = per_call_us(lambda: F.conv_transpose1d(x, w, b, s, p))
        res["convt1d.conv_transpose1d"] = per_call_us(lambda: convt1d.conv_transpose1d(x, w, b, s, p))
        op = torch.ops.convt1d.conv_transpose1d.default
        res["torch.ops.convt1d.conv_transpose1d"] = per_call_us(lambda: op(x, w, b, s, p, 0, 1, 1))
        m_ref = torch.nn.ConvTranspose1d(Cin, Cout, K, s, p)
        m_new = convt1d.ConvTranspose1d(Cin, Cout, K, s, p)
        res["nn.ConvTranspose1d forward (no_grad)"] = per_call_us(lambda: m_ref(x))
        res["convt1d.ConvTranspose1d forward (no_grad)"] = per_call_us(lambda: m_new(x))
    res["nn.ConvTranspose1d forward (grad)"] = per_call_us(lambda: m_ref(x))
    res["convt1d.ConvTranspose1d forward (grad)"] = per_call_us(lambda: m_new(x))

    def fb(m):
        m(x).sum().backward()
    res["nn.ConvTranspose1d forward+backward"] = per_call_us(lambda: fb(m_ref), n=1000)
    res["convt1d.ConvTranspose1d forward+backward"] = per_call_us(lambda: fb(m_new), n=1000)
    print(f"tiny problem N={N} C_in={Cin} C_out={Cout} K={K} L={L} stride={s} padding={p}, "
          f"{args.threads} thread(s), torch {torch.__version__}")
    for k, v in res.items():
        print(f"  {k:45s} {v:8.2f} us/call")
    if args.out:
        json.dump({"threads": args.threads, "us_per_call": res}, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
