"""Where the host time of one forward call goes, between the CUDA runtime calls it makes: each call of the C++ op
(plain and with the weight cache) under torch.profiler's CPU trace, its runtime API events (cudaMallocAsync,
cudaLaunchKernel, ...) listed by their start and length relative to the op's start, medians over the calls. The gaps
between them are the library's own host code (checks, make_problem, picking a path, tensor maps). The profiler's
CUPTI hooks make each API call itself look longer than it is; the gaps are not inflated.

    python dev/python/host_gaps.py [--shape single_utterance_x8] [--dtype fp16] [--calls 200]
"""
import argparse
import json
import os
import statistics
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d.bench import PROBLEMS  # noqa: E402


def timeline(fn, op_name, calls):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    ev = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CPU]
    ops = sorted((e for e in ev if e.name == op_name), key=lambda e: e.time_range.start)
    api = sorted((e for e in ev if e.name.startswith(("cuda", "cu")) and not e.name.startswith("cudaDeviceSync")),
                 key=lambda e: e.time_range.start)
    rows = {}
    totals = []
    for o in ops:
        s, t = o.time_range.start, o.time_range.end
        inside = [a for a in api if s <= a.time_range.start <= t]
        totals.append(t - s)
        for i, a in enumerate(inside):
            rows.setdefault((i, a.name), []).append((a.time_range.start - s, a.time_range.end - a.time_range.start,
                                                      t - a.time_range.end))
    out = {"op_us": statistics.median(totals) if totals else None, "calls": len(ops), "api": []}
    for (i, name), v in sorted(rows.items()):
        if len(v) < len(ops) // 2:
            continue
        out["api"].append({"i": i, "name": name, "start_us": statistics.median(x[0] for x in v),
                           "dur_us": statistics.median(x[1] for x in v), "to_end_us": statistics.median(x[2] for x in v)})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="single_utterance_x8")
    ap.add_argument("--dtype", default="fp16")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--out")
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
    res = {"gpu": torch.cuda.get_device_name(), "shape": c["name"], "dtype": args.dtype}
    with torch.no_grad():
        for name, mod, op in (("plain", m, "convt1d_eager::conv_transpose1d"),
                              ("cached", mc, "convt1d_eager::conv_transpose1d_cached")):
            r = timeline(lambda mod=mod: mod(x), op, args.calls)
            res[name] = r
            print(f"{c['name']} {args.dtype} {name}: op {r['op_us']:.2f} us over {r['calls']} calls (profiled)")
            for a in r["api"]:
                print(f"   {a['i']:2d} {a['name'][:40]:40s} at {a['start_us']:6.2f}  takes {a['dur_us']:5.2f}  "
                      f"then {a['to_end_us']:6.2f} to the op's end")
    if args.out:
        json.dump(res, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
