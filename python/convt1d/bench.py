"""python -m convt1d.bench: convt1d vs cuDNN (torch.nn.functional.conv_transpose1d), side by side in
one process, over the benchmark suite of problems.json (or --shapes a,b).

Modes (forward): fp32 (cudnn.allow_tf32 = True, PyTorch's default, both sides), fp32_strict
(allow_tf32 = False, both sides), fp16, bf16. With --backward also fp32_fwd_bwd, fp32_strict_fwd_bwd,
fp16_fwd_bwd, bf16_fwd_bwd (forward + grad input, weight, bias) and each gradient alone
(<prec>_bwd_input / _bwd_weight / _bwd_bias).

Timing: triton.testing.do_bench (median) when triton imports, else CUDA events (median of many runs), in
the order convt1d, cuDNN, cuDNN, convt1d with each side the mean of its two medians (time_kernel_pair: a
drift such as the card reaching its power cap then weighs on both sides alike);
inputs rotate over several copies when the working set fits in L2. Shapes tagged "latency" are
timed as whole Python calls (module forward, and backward through autograd) per call, both sides,
interleaved in bursts with the garbage collector paused (time_calls_pair).
A device-to-device copy is timed in the same run as the bandwidth yardstick. The error of each side
is measured against a float64 F.conv_transpose1d evaluated on the same device.
--weight-cache times inference with the weights packed once: the convt1d side is a ConvTranspose1d with
cache_packed_weights() (one module per rotated weight copy), its error read on a call that uses the cache.

    python -m convt1d.bench --out bench/results/h100.json              # GPU, forward modes
    python -m convt1d.bench --backward --shapes kernelbench_64,grouped_g4
    python -m convt1d.bench --weight-cache --out bench/results/h100_fwd_weight_cache.json
    python -m convt1d.bench --device cpu --shapes kernelbench_64_small  # CPU smoke test
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

import convt1d

PROBLEMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "problems.json")
PRECISIONS = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16,
              "bf16": torch.bfloat16}
FWD_MODES = ["fp32", "fp32_strict", "fp16", "bf16"]
BWD_MODES = ([f"{p}_fwd_bwd" for p in FWD_MODES]
             + [f"{p}_bwd_{g}" for p in FWD_MODES for g in ("input", "weight", "bias")])
# Throughput ceilings (TFLOP/s) for the roofline: measured H200 numbers from problems.json where
# given (the H100 SXM has the same SMs and clocks), else nominal dense figures.
CEILINGS = {"H200": {"fp32": 366.7, "fp32_strict": 51.1, "fp16": 790.0, "bf16": 790.0},
            "H100": {"fp32": 366.7, "fp32_strict": 51.1, "fp16": 790.0, "bf16": 790.0},
            "A100": {"fp32": 156.0, "fp32_strict": 19.5, "fp16": 312.0, "bf16": 312.0}}


# ------------------------------------------------------------------------------------ helpers
class _Bar:
    """tqdm when installed, else a one-line text bar on stderr."""

    def __init__(self, total: int, desc: str):
        try:
            from tqdm import tqdm
            self._t = tqdm(total=total, desc=desc, file=sys.stderr, dynamic_ncols=True)
        except ImportError:
            self._t = None
        self.total, self.n, self.desc = total, 0, desc

    def update(self, label: str = ""):
        self.n += 1
        if self._t is not None:
            self._t.set_postfix_str(label)
            self._t.update(1)
            return
        width = 30
        fill = int(width * self.n / max(self.total, 1))
        sys.stderr.write(f"\r{self.desc} [{'#' * fill}{'.' * (width - fill)}] {self.n}/{self.total} {label[:40]:40s}")
        sys.stderr.flush()

    def close(self):
        if self._t is not None:
            self._t.close()
        else:
            sys.stderr.write("\n")


def git_commit() -> str:
    # CONVT1D_COMMIT names the commit where the tree has no .git (the GPU machine gets a bare copy).
    if os.environ.get("CONVT1D_COMMIT"):
        return os.environ["CONVT1D_COMMIT"]
    try:
        return subprocess.check_output(["git", "rev-parse", "--short", "HEAD"],
                                       cwd=os.path.dirname(os.path.abspath(__file__)),
                                       stderr=subprocess.DEVNULL, text=True).strip()
    except Exception:
        return "unknown"


def _sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _have_triton() -> bool:
    try:
        import triton.testing  # noqa: F401
        return True
    except Exception:
        return False


def time_kernel(fn, device, min_runs: int = 20, budget_ms: float = 400.0) -> float:
    """Median milliseconds of fn(): triton's do_bench on CUDA when available, else CUDA events (or
    perf_counter on CPU), enough runs to fill ~budget_ms."""
    if device.type == "cuda" and _have_triton():
        from triton.testing import do_bench
        return float(do_bench(fn, warmup=25, rep=int(budget_ms / 4) + 25, return_mode="median"))
    fn()
    _sync(device)
    t0 = time.perf_counter()
    fn()
    _sync(device)
    est = max((time.perf_counter() - t0) * 1e3, 1e-3)
    runs = int(min(max(min_runs, budget_ms / est), 2000))
    if device.type == "cuda":
        evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(runs)]
        for a, b in evs:
            a.record()
            fn()
            b.record()
        torch.cuda.synchronize(device)
        return statistics.median(a.elapsed_time(b) for a, b in evs)
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


def abba_times(n: int, time_one) -> list:
    """time_one(i) for i = 0 .. n-1 and then n-1 .. 0 (A B C C B A), each i's result the mean of its two: a drift
    during the measurement (the card heating up to its power cap on the big layers) then weighs on every entry
    alike. Timed once in order, the first entry ran up to ~10% faster on KernelBench 64 (run 123: the same kernel
    first and third in one process, 1.149 vs 1.260 ms). One round of rotated_abba_times."""
    return rotated_abba_times(n, time_one, rounds=1)


def rotated_abba_times(n: int, time_one, rounds: int = 0) -> list:
    """abba_times in `rounds` rounds (n by default), round r starting at entry r (r, r+1, ..., r-1 mod n, then back):
    over n rounds every entry takes every place of a round once, so a bias by place (not only a steady drift)
    weighs on every entry alike. Run 254 timed one kernel under two names at places 2 / 15 and 6 / 11 of a 16-place
    ABBA round: 1-5% apart on the power-hungry vocoder layers. Each entry: the mean of its 2 * rounds results."""
    rounds = rounds or n
    acc = [0.0] * n
    for r in range(rounds):
        order = [(r + i) % n for i in range(n)]
        for i in order + order[::-1]:
            acc[i] += time_one(i)
    return [t / (2 * rounds) for t in acc]


def time_kernel_pair(fa, fb, device, budget_ms: float = 400.0, mirrored: bool = False):
    """Median milliseconds of fa() and of fb() (time_kernel), timed in the order fa, fb, fb, fa with half the
    budget each, each side the mean of its two medians (abba_times). mirrored (--order mirrored): fa, fb, fb, fa,
    fb, fa, fa, fb with a quarter each (rotated_abba_times, two rounds), so each side takes the ends and the middle
    of a round alike (a bias by place, run 254: up to 5% on power-hungry layers in a 16-place sequence)."""
    fns, rounds = (fa, fb), 2 if mirrored else 1
    return tuple(rotated_abba_times(2, lambda i: time_kernel(fns[i], device, budget_ms=budget_ms / (2 * rounds)),
                                    rounds=rounds))


def time_calls(fn, device, budget_ms: float = 300.0) -> float:
    """Per-call milliseconds of back-to-back whole Python calls (launch overhead included)."""
    for _ in range(10):
        fn()
    _sync(device)
    meds = []
    for _ in range(5):
        n = 0
        t0 = time.perf_counter()
        while True:
            fn()
            n += 1
            if n >= 20 and (time.perf_counter() - t0) * 1e3 > budget_ms / 5:
                break
        _sync(device)
        meds.append((time.perf_counter() - t0) * 1e3 / n)
    return statistics.median(meds)


def time_calls_pair(fa, fb, device, budget_ms: float = 300.0, rounds: int = 10):
    """Per-call milliseconds of whole Python calls for two functions, interleaved: `rounds` rounds of a
    burst of fa then a burst of fb (each about budget/(2*rounds) ms), median of the bursts per side, with
    Python's garbage collector paused. Host noise (other processes, clock changes) then hits both sides
    alike instead of whichever ran second."""
    import gc
    for _ in range(10):
        fa()
        fb()
    _sync(device)
    burst = budget_ms / (2 * rounds)
    res = ([], [])
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for side, fn in enumerate((fa, fb)):
                n = 0
                t0 = time.perf_counter()
                while True:
                    fn()
                    n += 1
                    if n >= 10 and (time.perf_counter() - t0) * 1e3 > burst:
                        break
                _sync(device)
                res[side].append((time.perf_counter() - t0) * 1e3 / n)
    finally:
        if enabled:
            gc.enable()
    return statistics.median(res[0]), statistics.median(res[1])


def copy_bandwidth_gbps(device, nbytes: int = 1 << 30) -> float:
    """Device-to-device copy bandwidth (bytes read + written per second)."""
    if device.type == "cpu":
        nbytes = 1 << 27
    src = torch.empty(nbytes, dtype=torch.uint8, device=device).fill_(1)
    dst = torch.empty_like(src)
    ms = time_kernel(lambda: dst.copy_(src), device)
    return 2 * nbytes / (ms * 1e-3) / 1e9


def l2_bytes(device) -> int:
    if device.type != "cuda":
        return 32 << 20
    return int(getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 50 << 20))


def rel_err(got, ref) -> float:
    den = ref.abs().max().item() if ref.numel() else 0.0
    if ref.numel() == 0:
        return 0.0
    return (got.double() - ref).abs().max().item() / (den if den > 0 else 1.0)


def load_shapes(names: str | None, problems: str = PROBLEMS) -> list[dict]:
    data = json.load(open(problems))
    pool = {c["name"]: c for c in data["suite"] + data.get("edge_cases", [])}
    if not names:
        return list(data["suite"])
    out = []
    for n in names.split(","):
        n = n.strip()
        if n not in pool:
            raise SystemExit(f"unknown shape {n!r}; known: {', '.join(pool)}")
        out.append(pool[n])
    return out


# ------------------------------------------------------------------------------------ one shape
class Shape:
    def __init__(self, c: dict, device):
        self.c, self.device = c, device
        self.kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"],
                       groups=c["groups"], dilation=c["dilation"])
        self.lout = convt1d.output_length(c["L"], c["K"], c["stride"], c["padding"], c["output_padding"],
                                          c["dilation"], c["Cin"], c["Cout"], c["groups"])
        g = torch.Generator(device=device).manual_seed(0)
        self.x64 = torch.randn(c["N"], c["Cin"], c["L"], generator=g, device=device, dtype=torch.float64)
        self.w64 = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], generator=g, device=device,
                               dtype=torch.float64) / math.sqrt(c["Cin"] // c["groups"] * c["K"])
        self.b64 = (torch.randn(c["Cout"], generator=g, device=device, dtype=torch.float64)
                    if c.get("bias") else None)
        self.gy64 = None
        self.latency = "latency" in c.get("tags", [])

    def numel(self):
        c = self.c
        return dict(x=c["N"] * c["Cin"] * c["L"], w=c["Cin"] * (c["Cout"] // c["groups"]) * c["K"],
                    b=c["Cout"] if c.get("bias") else 0, y=c["N"] * c["Cout"] * self.lout)

    def flops(self, kind: str) -> float:
        c = self.c
        mac = 2.0 * c["N"] * c["Cin"] * (c["Cout"] // c["groups"]) * c["K"] * c["L"]
        bias = c["N"] * c["Cout"] * self.lout if c.get("bias") else 0
        return {"fwd": mac + bias, "fwd_bwd": 3 * mac + 2 * bias, "bwd_input": mac,
                "bwd_weight": mac, "bwd_bias": c["N"] * c["Cout"] * self.lout}[kind]

    def bytes(self, kind: str, esize: int) -> float:
        n = self.numel()
        fwd = n["x"] + n["w"] + n["b"] + n["y"]
        bi = n["y"] + n["w"] + n["x"]
        bw = n["y"] + n["x"] + n["w"]
        bb = n["y"] + n["b"] if n["b"] else n["y"] + self.c["Cout"]
        return esize * {"fwd": fwd, "fwd_bwd": fwd + bi + bw + (bb if n["b"] else 0),
                        "bwd_input": bi, "bwd_weight": bw, "bwd_bias": bb}[kind]


def _aten_bwd(gy, x, w, c, mask, bias_sizes):
    return torch.ops.aten.convolution_backward(
        gy, x, w, bias_sizes, [c["stride"]], [c["padding"]], [c["dilation"]], True,
        [c["output_padding"]], c["groups"], mask)


def _cached_module(c: dict, w, b, kw: dict):
    """convt1d.ConvTranspose1d holding w (and b) with its packed-weight cache on (--weight-cache)."""
    m = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=b is not None, device=w.device, dtype=w.dtype, **kw)
    with torch.no_grad():
        m.weight.copy_(w)
        if b is not None:
            m.bias.copy_(b)
    return m.cache_packed_weights()


def run_case(sh: Shape, mode: str, args, l2: int) -> dict:
    c, device = sh.c, sh.device
    prec = mode.split("_fwd_bwd")[0].split("_bwd_")[0]
    kind = "fwd" if mode == prec else ("fwd_bwd" if mode.endswith("fwd_bwd") else "bwd_" + mode.split("_bwd_")[1])
    dtype = PRECISIONS[prec]
    torch.backends.cudnn.allow_tf32 = prec == "fp32"  # the two sides always see the same setting
    has_bias = sh.b64 is not None
    if kind == "bwd_bias" and not has_bias:
        return dict(name=c["name"], mode=mode, skipped="no bias")
    rec = dict(name=c["name"], mode=mode, dtype=str(dtype).replace("torch.", ""),
               allow_tf32=torch.backends.cudnn.allow_tf32, latency=sh.latency,
               shape={k: c[k] for k in ("N", "Cin", "Cout", "K", "L", "stride", "padding",
                                        "output_padding", "groups", "dilation", "bias")},
               L_out=sh.lout)
    x, w = sh.x64.to(dtype), sh.w64.to(dtype)
    b = sh.b64.to(dtype) if has_bias else None
    kw = sh.kw
    need_bwd = kind != "fwd"
    if need_bwd and sh.gy64 is None:
        g = torch.Generator(device=device).manual_seed(1)
        sh.gy64 = torch.randn(c["N"], c["Cout"], sh.lout, generator=g, device=device, dtype=torch.float64)
    gy = sh.gy64.to(dtype) if need_bwd else None
    mask = {"fwd_bwd": [True, True, has_bias], "bwd_input": [True, False, False],
            "bwd_weight": [False, True, False], "bwd_bias": [False, False, True]}.get(kind)
    bias_sizes = [c["Cout"]] if has_bias else None

    # -- correctness against float64 on the same device (inputs rounded to dtype first)
    with torch.no_grad():
        xr, wr = x.double(), w.double()
        br = b.double() if has_bias else None
        if kind == "fwd":
            refs = [F.conv_transpose1d(xr, wr, br, **kw)]
            if args.weight_cache:  # the second call, which reads the cache's copy
                cm = _cached_module(c, w, b, kw)
                cm(x)
                mine = [cm(x)]
                del cm
            else:
                mine = [convt1d.conv_transpose1d(x, w, b, **kw)]
            theirs = [F.conv_transpose1d(x, w, b, **kw)]
        else:
            gyr = gy.double()
            r = _aten_bwd(gyr, xr, wr, c, mask, bias_sizes)
            refs = [t for t, m in zip(r, mask) if m]
            o = torch.ops.convt1d.conv_transpose1d_backward(gy, x, w, c["stride"], c["padding"],
                                                            c["output_padding"], c["groups"],
                                                            c["dilation"], mask)
            mine = [t for t, m in zip(o, mask) if m]
            t2 = _aten_bwd(gy, x, w, c, mask, bias_sizes)
            theirs = [t for t, m in zip(t2, mask) if m]
            if kind == "fwd_bwd":
                y64 = F.conv_transpose1d(xr, wr, br, **kw)
                refs.insert(0, y64)
                mine.insert(0, convt1d.conv_transpose1d(x, w, b, **kw))
                theirs.insert(0, F.conv_transpose1d(x, w, b, **kw))
        rec["rel_err"] = max(rel_err(m, r) for m, r in zip(mine, refs))
        rec["cudnn_rel_err"] = max(rel_err(t, r) for t, r in zip(theirs, refs))
        del refs, mine, theirs

    # -- timing
    ws = sh.bytes(kind, x.element_size())
    copies = 1
    if device.type == "cuda" and ws < l2 and not sh.latency:
        copies = int(min(32, max(2, math.ceil(3 * l2 / max(ws, 1)))))
    xs = [x] + [x.clone() for _ in range(copies - 1)]
    ws_ = [w] + [w.clone() for _ in range(copies - 1)]
    gys = [gy] + [gy.clone() for _ in range(copies - 1)] if need_bwd else [None] * copies
    it = [0]

    def pick():
        i = it[0] = (it[0] + 1) % copies
        return xs[i], ws_[i], gys[i]

    s, p, op, g, d = c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"]
    cop = torch.ops.convt1d.conv_transpose1d_backward.default
    fop = torch.ops.convt1d.conv_transpose1d.default
    if sh.latency:
        # Whole Python calls, module forward (+ autograd backward), both sides.
        ours_m = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=has_bias, device=device,
                                         dtype=dtype, **kw)
        ref_m = torch.nn.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], bias=has_bias, device=device,
                                         dtype=dtype, **kw)
        with torch.no_grad():
            ours_m.weight.copy_(w)
            ref_m.weight.copy_(w)
            if has_bias:
                ours_m.bias.copy_(b)
                ref_m.bias.copy_(b)
        if kind == "fwd":
            if args.weight_cache:
                ours_m.cache_packed_weights()

            def fa():
                with torch.no_grad():
                    ours_m(x)

            def fb():
                with torch.no_grad():
                    ref_m(x)
        elif kind == "fwd_bwd":
            xg = x.clone().requires_grad_()

            def fa():
                ours_m(xg).backward(gy)

            def fb():
                ref_m(xg).backward(gy)
        else:
            def fa():
                cop(gy, x, w, s, p, op, g, d, mask)

            def fb():
                _aten_bwd(gy, x, w, c, mask, bias_sizes)
        timer = time_calls
    else:
        if kind == "fwd":
            if args.weight_cache:
                mods = [_cached_module(c, wi, b, kw) for wi in ws_]  # one cache per rotated weight

                def fa():
                    xi, _, _ = pick()
                    mods[it[0]](xi)
            else:
                def fa():
                    xi, wi, _ = pick()
                    convt1d.conv_transpose1d(xi, wi, b, s, p, op, g, d)

            def fb():
                xi, wi, _ = pick()
                F.conv_transpose1d(xi, wi, b, s, p, op, g, d)
        elif kind == "fwd_bwd":
            def fa():
                xi, wi, gi = pick()
                fop(xi, wi, b, s, p, op, g, d)
                cop(gi, xi, wi, s, p, op, g, d, mask)

            def fb():
                xi, wi, gi = pick()
                F.conv_transpose1d(xi, wi, b, s, p, op, g, d)
                _aten_bwd(gi, xi, wi, c, mask, bias_sizes)
        else:
            def fa():
                xi, wi, gi = pick()
                cop(gi, xi, wi, s, p, op, g, d, mask)

            def fb():
                xi, wi, gi = pick()
                _aten_bwd(gi, xi, wi, c, mask, bias_sizes)
        timer = time_kernel
    with torch.no_grad() if kind == "fwd" else torch.enable_grad():
        if sh.latency:
            rec["convt1d_ms"], rec["cudnn_ms"] = time_calls_pair(fa, fb, device, budget_ms=2 * args.budget_ms)
        elif timer is time_kernel:
            rec["convt1d_ms"], rec["cudnn_ms"] = time_kernel_pair(fa, fb, device, budget_ms=args.budget_ms,
                                                                  mirrored=args.order == "mirrored")
        else:
            rec["convt1d_ms"] = timer(fa, device, budget_ms=args.budget_ms)
            rec["cudnn_ms"] = timer(fb, device, budget_ms=args.budget_ms)
    rec["timing"] = "python_call" if sh.latency else ("do_bench" if device.type == "cuda" and _have_triton()
                                                      else ("cuda_events" if device.type == "cuda" else "perf_counter"))
    rec["rotated_copies"] = copies
    if args.weight_cache and kind == "fwd":
        rec["weight_cache"] = True
    rec["speedup"] = rec["cudnn_ms"] / rec["convt1d_ms"]
    rec["gbps"] = ws / (rec["convt1d_ms"] * 1e-3) / 1e9
    rec["tflops"] = sh.flops(kind) / (rec["convt1d_ms"] * 1e-3) / 1e12
    rec["cudnn_tflops"] = sh.flops(kind) / (rec["cudnn_ms"] * 1e-3) / 1e12
    rec["bytes"] = ws
    rec["flops"] = sh.flops(kind)
    return rec


def roofline(rec: dict, copy_gbps: float, ceilings: dict | None) -> None:
    rec["pct_copy_bw"] = 100.0 * rec["gbps"] / copy_gbps
    prec = rec["mode"].split("_fwd_bwd")[0].split("_bwd_")[0]
    peak = (ceilings or {}).get(prec)
    mem_bound = rec["flops"] / rec["bytes"] * copy_gbps / 1e3  # TFLOP/s the copy bandwidth allows
    attainable = min(peak, mem_bound) if peak else mem_bound
    rec["roofline_tflops"] = attainable
    rec["pct_roofline"] = 100.0 * rec["tflops"] / attainable if attainable else None


def print_table(records: list[dict], out=sys.stdout) -> None:
    hdr = (f"{'shape':26s} {'mode':22s} {'convt1d ms':>11s} {'cuDNN ms':>10s} {'speedup':>8s} "
           f"{'GB/s':>8s} {'%copyBW':>8s} {'TFLOP/s':>8s} {'%roof':>6s} {'rel err':>9s} {'cuDNN err':>9s}")
    print(hdr, file=out)
    print("-" * len(hdr), file=out)
    for r in records:
        if "skipped" in r or "error" in r:
            print(f"{r['name'][:26]:26s} {r['mode']:22s} {r.get('skipped') or 'ERROR: ' + r['error'][:80]}",
                  file=out)
            continue
        lat = "*" if r.get("latency") else " "
        print(f"{r['name'][:25]:25s}{lat} {r['mode']:22s} {r['convt1d_ms']:11.4f} {r['cudnn_ms']:10.4f} "
              f"{r['speedup']:7.2f}x {r['gbps']:8.1f} {r['pct_copy_bw']:7.1f}% {r['tflops']:8.2f} "
              f"{(r['pct_roofline'] or 0):5.1f}% {r['rel_err']:9.2e} {r['cudnn_rel_err']:9.2e}", file=out)
    if any(r.get("latency") for r in records):
        print("* latency shape: whole Python call (module forward / autograd backward) per call, the two sides interleaved", file=out)


def slower_line(records: list[dict]) -> str:
    """One line naming the timed cases where convt1d is slower than cuDNN (speedup below 1), slowest first: what the
    geomeans hide (the model zoo's dac_44k_up1_train at 0.21x, Session 49)."""
    slow = sorted((r for r in records if r["speedup"] < 1.0), key=lambda r: r["speedup"])
    if not slow:
        return f"slower than cuDNN: none of {len(records)} cases"
    cases = ", ".join(f"{r['name']} {r['mode']} {r['speedup']:.2f}x" for r in slow)
    return f"slower than cuDNN: {len(slow)} of {len(records)} cases: {cases}"


def plot(records: list[dict], path: str) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:
        return False
    ok = [r for r in records if "speedup" in r]
    if not ok:
        return False
    names = list(dict.fromkeys(r["name"] for r in ok))
    modes = list(dict.fromkeys(r["mode"] for r in ok))
    fig, axes = plt.subplots(2, 1, figsize=(max(10, 0.7 * len(names) * max(1, len(modes) / 4)), 10))
    width = 0.8 / len(modes)
    for ax, key, title in ((axes[0], "speedup", "speedup over cuDNN (x)"),
                           (axes[1], "pct_roofline", "convt1d % of roofline (copy BW / ceilings)")):
        for j, m in enumerate(modes):
            vals = []
            for n in names:
                r = next((r for r in ok if r["name"] == n and r["mode"] == m), None)
                vals.append((r.get(key) or float('nan')) if r else float('nan'))
            ax.bar([i + j * width for i in range(len(names))], vals, width, label=m)
        if key == "speedup":
            ax.axhline(1.0, color="k", lw=0.8)
            ax.set_yscale("log")
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(names))])
        ax.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
        ax.set_title(title)
        ax.legend(fontsize=7, ncol=4)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m convt1d.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--shapes", help="comma-separated shape names (default: the whole suite)")
    ap.add_argument("--tags", help="comma-separated tags: only the shapes that carry every one (e.g. --problems "
                                   "bench/zoo.json --tags train)")
    ap.add_argument("--modes", help="comma-separated modes (default: forward modes, + backward "
                                    "modes with --backward)")
    ap.add_argument("--backward", action="store_true", help="also the forward+backward and per-gradient modes")
    ap.add_argument("--budget-ms", type=float, default=300.0, help="timing budget per side and case")
    ap.add_argument("--order", default="abba", choices=["abba", "mirrored"],
                    help="kernel timing order per case: abba (convt1d, cuDNN, cuDNN, convt1d; the committed results) or "
                         "mirrored (that, then cuDNN, convt1d, convt1d, cuDNN: each side at the ends and in the middle)")
    ap.add_argument("--cudnn-benchmark", action="store_true",
                    help="torch.backends.cudnn.benchmark = True (algorithm search) for the baseline")
    ap.add_argument("--weight-cache", action="store_true",
                    help="inference with packed weights kept across calls: the convt1d side's forward is a "
                         "ConvTranspose1d with cache_packed_weights() (forward modes only)")
    ap.add_argument("--problems", default=PROBLEMS, help="problems.json to read the suite from")
    ap.add_argument("--out", help="write JSON results here (and a PNG plot next to it)")
    ap.add_argument("--plot", help="PNG path (default: --out with .png)")
    args = ap.parse_args(argv)

    device = torch.device(args.device)
    if device.type == "cuda":
        if device.index is None:  # torch 2.11's set_device wants an index
            device = torch.device("cuda", torch.cuda.current_device())
        torch.cuda.set_device(device)
        if not convt1d.has_cuda():
            print(f"{convt1d.library_path} was built without CUDA; use --device cpu", file=sys.stderr)
            return 2
    torch.backends.cudnn.benchmark = args.cudnn_benchmark
    shapes = load_shapes(args.shapes, args.problems)
    if args.tags:
        want = set(args.tags.split(","))
        shapes = [c for c in shapes if want <= set(c.get("tags", []))]
        if not shapes:
            raise SystemExit(f"no shape carries every tag of {args.tags!r}")
    modes = args.modes.split(",") if args.modes else FWD_MODES + (BWD_MODES if args.backward else [])
    for m in modes:
        if m not in FWD_MODES + BWD_MODES:
            raise SystemExit(f"unknown mode {m!r}; known: {', '.join(FWD_MODES + BWD_MODES)}")
    gpu = torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU"
    ceilings = next((v for k, v in CEILINGS.items() if k in gpu), None)
    tf32_default = torch.backends.cudnn.allow_tf32
    copy_gbps = copy_bandwidth_gbps(device)
    header = dict(device=str(device), gpu=gpu, torch=torch.__version__,
                  cudnn=torch.backends.cudnn.version() if device.type == "cuda" else None,
                  cuda=torch.version.cuda, convt1d=convt1d.__version__, library=convt1d.library_path,
                  git_commit=git_commit(),
                  date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  timing=("triton.testing.do_bench median" if device.type == "cuda" and _have_triton()
                          else ("CUDA events median" if device.type == "cuda" else "perf_counter median"))
                  + (", order convt1d-cuDNN-cuDNN-convt1d-cuDNN-convt1d-convt1d-cuDNN (mean of each side's four medians)"
                     if args.order == "mirrored" else ", order convt1d-cuDNN-cuDNN-convt1d (mean of each side's two medians)"),
                  copy_bw_gbps=copy_gbps, cudnn_benchmark=args.cudnn_benchmark, ceilings_tflops=ceilings,
                  weight_cache=args.weight_cache,
                  cpu_threads=torch.get_num_threads())
    print(f"device {gpu}; torch {torch.__version__}; cuDNN {header['cudnn']}; commit {header['git_commit']}; "
          f"copy bandwidth {copy_gbps:.0f} GB/s; timing: {header['timing']}", flush=True)
    l2 = l2_bytes(device)
    records = []
    bar = _Bar(len(shapes) * len(modes), "bench")
    try:
        for c in shapes:
            sh = Shape(c, device)
            for m in modes:
                try:
                    rec = run_case(sh, m, args, l2)
                    if "speedup" in rec:
                        roofline(rec, copy_gbps, ceilings)
                except (RuntimeError, ValueError) as e:  # one failing case must not end the run
                    rec = dict(name=c["name"], mode=m, error=str(e).splitlines()[0])
                    if device.type == "cuda" and "out of memory" in str(e):
                        torch.cuda.empty_cache()
                records.append(rec)
                bar.update(f"{c['name']} {m}")
            del sh
            if device.type == "cuda":
                torch.cuda.empty_cache()
    finally:
        bar.close()
        torch.backends.cudnn.allow_tf32 = tf32_default
    print_table(records)
    ok = [r for r in records if "speedup" in r]
    if ok:
        for m in modes:
            sp = [r["speedup"] for r in ok if r["mode"] == m]
            if sp:
                print(f"geomean speedup {m:22s} {math.exp(sum(map(math.log, sp)) / len(sp)):6.2f}x "
                      f"over {len(sp)} shapes")
        print(slower_line(ok))
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as fh:
            json.dump({"header": header, "records": records}, fh, indent=1)
        print(f"wrote {args.out}")
    png = args.plot or (os.path.splitext(args.out)[0] + ".png" if args.out else None)
    if png and plot(records, png):
        print(f"wrote {png}")
    return 0 if all("error" not in r for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
