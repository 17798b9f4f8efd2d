"""Where a latency row's per-call time goes: eager Python calls back to back (host + GPU) against the same call
replayed from a CUDA graph (GPU only), for convt1d (plain, and with the weight cache) and cuDNN, and the kernels one
call launches with their GPU durations (torch.profiler).

    python dev/python/latency_probe.py [--shape single_utterance_x8] [--modes fp32,fp16,bf16] [--out probe.json]
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d.bench import PROBLEMS  # noqa: E402

DT = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def eager_us(fn, n=400, reps=7):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    best = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
        best.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(best)


def graph_us(fn, n=400, reps=7):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(20):
            fn()
    g.replay()
    torch.cuda.synchronize()
    res = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(n // 20):
            g.replay()
        b.record()
        torch.cuda.synchronize()
        res.append(a.elapsed_time(b) * 1e3 / (n // 20 * 20))
    return statistics.median(res)


def kernels(fn):
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
    ev = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    per = {}
    for e in ev:
        per.setdefault(e.name[:90], []).append(e.device_time)
    return {k: round(statistics.median(v), 2) for k, v in per.items()}


def host_table(fn, n=200):
    """torch.profiler's CPU-side averages over n calls (Python ops, dispatcher, CUDA runtime calls)."""
    from torch.profiler import ProfilerActivity, profile
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
    return prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=25, max_name_column_width=70)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="single_utterance_x8")
    ap.add_argument("--modes", default="fp32,fp16,bf16")
    ap.add_argument("--out")
    ap.add_argument("--host", action="store_true", help="also print the CPU-side profile of each side's calls")
    ap.add_argument("--no-kernels", action="store_true",
                    help="skip the torch.profiler kernel listing (a profiler session may slow the launches that follow)")
    ap.add_argument("--order", default="convt1d,convt1d_cached,cudnn",
                    help="the sides, in the order timed (a side may repeat: its later timings are keyed name#2, ...)")
    ap.add_argument("--no-graph", action="store_true", help="skip the CUDA graph replay timing (no capture at all)")
    args = ap.parse_args()
    c = next(c for c in json.load(open(PROBLEMS))["suite"] if c["name"] == args.shape)
    kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"], groups=c["groups"],
              dilation=c["dilation"])
    out = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "shape": c, "modes": {}}
    for mode in args.modes.split(","):
        torch.backends.cudnn.allow_tf32 = mode == "fp32"
        dt = DT[mode]
        x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
        ours = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device="cuda", dtype=dt, **kw)
        cached = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device="cuda", dtype=dt, **kw)
        ref = torch.nn.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=c["bias"], device="cuda", dtype=dt, **kw)
        cached.load_state_dict(ours.state_dict())
        ref.load_state_dict(ours.state_dict())
        cached.cache_packed_weights()
        r = {}
        with torch.no_grad():
            sides = {"convt1d": ours, "convt1d_cached": cached, "cudnn": ref}
            for side in args.order.split(","):
                fn = (lambda m=sides[side]: m(x))
                name, k = side, 1
                while name in r:
                    k += 1
                    name = f"{side}#{k}"
                r[name] = {"eager_us": round(eager_us(fn), 2),
                           "graph_us": float("nan") if args.no_graph else round(graph_us(fn), 2),
                           "kernels_us": {} if args.no_kernels else kernels(fn)}
                print(f"{mode:6s} {name:17s} eager {r[name]['eager_us']:7.2f} us  graph {r[name]['graph_us']:7.2f} us  "
                      f"kernels {r[name]['kernels_us']}", flush=True)
                if args.host:
                    print(host_table(fn), flush=True)
        out["modes"][mode] = r
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
