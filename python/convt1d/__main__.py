"""python -m convt1d: check and time the three KernelBench transposed-1D problems against PyTorch.

Runs on the best device there is: CUDA (full KernelBench sizes) when a GPU and a CUDA build of the
library are present, otherwise CPU with smaller sizes (said plainly in the output).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

import convt1d

PROBLEMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "problems.json")


def _time_ms(fn, device, runs, warmup) -> float:
    for _ in range(warmup):
        fn()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        ts = []
        for _ in range(runs):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            fn()
            b.record()
            torch.cuda.synchronize(device)
            ts.append(a.elapsed_time(b))
        return statistics.median(ts)
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m convt1d", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", choices=["auto", "cuda", "cpu"], default="auto")
    ap.add_argument("--runs", type=int, default=None, help="timed runs (default 50 GPU, 5 CPU)")
    ap.add_argument("--cpu-batch", type=int, default=2, help="batch size used on CPU")
    ap.add_argument("--cpu-length", type=int, default=4096, help="input length used on CPU")
    args = ap.parse_args(argv)

    use_cuda = torch.cuda.is_available() and convt1d.has_cuda()
    if args.device == "cuda" and not use_cuda:
        print("CUDA requested but " + ("no GPU is visible" if not torch.cuda.is_available()
                                       else f"{convt1d.library_path} was built without CUDA"))
        return 2
    if args.device == "cpu":
        use_cuda = False
    device = torch.device("cuda" if use_cuda else "cpu")
    runs = args.runs or (50 if use_cuda else 5)
    name = torch.cuda.get_device_name(device) if use_cuda else "CPU"
    print(f"convt1d {convt1d.__version__} ({convt1d.library_path}, CUDA build: {convt1d.has_cuda()})")
    print(f"device: {name}; torch {torch.__version__}"
          + (f", cuDNN {torch.backends.cudnn.version()}, cudnn.allow_tf32={torch.backends.cudnn.allow_tf32}"
             if use_cuda else f", {torch.get_num_threads()} threads"))
    if not use_cuda:
        print(f"NOTE: no usable GPU, so this runs on the CPU with SMALLER sizes (batch <= {args.cpu_batch}, "
              f"length <= {args.cpu_length}) than KernelBench's; CPU timings say nothing about the GPU.")
    models = json.load(open(PROBLEMS))["kernelbench_models"]
    print(f"{'problem':34s} {'input':>22s} {'max abs err':>11s} {'rel err':>9s} {'PyTorch ms':>10s} "
          f"{'convt1d ms':>10s} {'speedup':>8s}")
    ok = True
    for fname, spec in models.items():
        if not fname.endswith(".py"):
            continue
        init = spec["get_init_inputs"]
        sig = spec["signature"]
        names = [a.split("=")[0].strip() for a in sig[sig.index("(") + 1:sig.rindex(")")].split(",")]
        kw = dict(zip(names, init))
        cin, cout, k = kw["in_channels"], kw["out_channels"], kw["kernel_size"]
        conv_kw = {a: kw[a] for a in ("stride", "padding", "output_padding", "groups", "dilation") if a in kw}
        n, _, length = spec["input"]
        if not use_cuda:
            n, length = min(n, args.cpu_batch), min(length, args.cpu_length)
        torch.manual_seed(42)
        ref = torch.nn.ConvTranspose1d(cin, cout, k, bias=False, **conv_kw).to(device)
        torch.manual_seed(42)
        new = convt1d.ConvTranspose1d(cin, cout, k, bias=False, **conv_kw).to(device)
        x = torch.rand(n, cin, length, device=device)
        with torch.no_grad():
            y_ref, y_new = ref(x), new(x)
            # Error against a float64 evaluation of the same problem.
            y64 = F.conv_transpose1d(x.double(), ref.weight.double(), None, **conv_kw)
            abs_err = (y_new.double() - y64).abs().max().item()
            rel = abs_err / y64.abs().max().item()
            ok &= bool(torch.allclose(y_new, y_ref, atol=1e-2, rtol=1e-2))
            del y_ref, y_new, y64
            t_ref = _time_ms(lambda: ref(x), device, runs, 2)
            t_new = _time_ms(lambda: new(x), device, runs, 2)
        print(f"{fname.split('.')[0][:34]:34s} {str([n, cin, length]):>22s} {abs_err:11.2e} {rel:9.2e} "
              f"{t_ref:10.3f} {t_new:10.3f} {t_ref / t_new:7.2f}x", flush=True)
    print("all outputs match PyTorch (atol = rtol = 1e-2)" if ok else "MISMATCH against PyTorch")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
