"""Checks and times dev/cuda/wa_probe.cu (weights as wgmma A, x transposed in shared memory as B) against the
library's forward and cuDNN in one process (session 40).

    nvcc -O3 -std=c++17 -shared -Xcompiler -fPIC -gencode=arch=compute_90a,code=sm_90a \
         -o /tmp/wa_probe.so dev/cuda/wa_probe.cu
    python3 dev/python/wa_probe.py --lib /tmp/wa_probe.so [--rounds 3] [--out r.json]

Correctness: fresh random x and w per case, y poisoned with NaN, relative error (max |y - ref| / max |ref|) against
float64 beside the library's own TF32 error on the same inputs. Timing: convt1d.bench.time_kernel (do_bench
median), every variant in rotated ABBA rounds (convt1d.bench.rotated_abba_times), plus a device-to-device copy.
Variant numbers and timing modes (suffix mN): wa_run() in wa_probe.cu; what each form measured:
dev/cuda/results/run402_h200/README.md and docs/design.md, Session 40.
"""
import argparse
import ctypes
import json
import sys

import torch
import torch.nn.functional as F

import convt1d
from convt1d.bench import copy_bandwidth_gbps, rotated_abba_times, time_kernel

KB74 = dict(n=32, cin=32, cout=64, k=5, L=131072, dil=3)
CHECKS = [  # (n, cin, k, L, dil, variant as in VARIANTS): edges of the window (L % 4 != 0, short rows) and each
    # instantiation; m8 where a check takes the 16-byte (ws) or bulk-row (ws2) epilogue
    (3, 32, 5, 1000, 3, "1283"), (2, 32, 5, 4097, 3, "1283"), (2, 32, 5, 4099, 1, "1284"), (2, 32, 5, 777, 7, "644"),
    (2, 32, 5, 5000, 2, "2562"), (2, 32, 3, 3001, 2, "1283"), (2, 16, 5, 2048, 3, "1283"), (4, 32, 5, 100, 3, "1284"),
    # the staged kernel (90000 + 1000 x warpgroups + positions): bulk rows, and element stores where a row's bytes
    # are not a multiple of 16 (L_out 4109, 805)
    (3, 32, 5, 1000, 3, "93128"), (2, 32, 5, 4097, 3, "93128"), (2, 32, 5, 777, 7, "93064"), (2, 32, 3, 3001, 2, "93128"),
    (2, 16, 5, 2048, 3, "93128"), (2, 32, 5, 5000, 2, "92128"), (5, 32, 5, 131072, 3, "93128"),
    # PW warpgroups per tile (100000 x PW + ...): one bulk copy per row of PW x NP positions
    (3, 32, 5, 1000, 3, "292128"), (2, 32, 5, 4097, 3, "292128"), (2, 32, 5, 777, 7, "294064"), (3, 32, 5, 5000, 3, "494064"),
    (2, 32, 5, 4097, 3, "494064"), (5, 32, 5, 131072, 3, "292064"),
    # warp-specialized, x through registers (800000 + 1000 x stages + NP)
    (3, 32, 5, 1000, 3, "804128m8"), (5, 32, 5, 131072, 3, "803128m8"), (1, 32, 5, 300, 3, "804128m8"),
    # ... with x by cp.async into D raw stages (800000 + 10000 x D + ...)
    (3, 32, 5, 1000, 3, "842128m8"), (2, 32, 5, 4097, 3, "842128"), (2, 32, 5, 777, 7, "863064"), (2, 32, 3, 3001, 2, "842128"),
    # two producer warpgroups (900000 + ...)
    (3, 32, 5, 1000, 3, "922128m8"), (2, 32, 5, 4097, 3, "922128"), (2, 32, 5, 777, 7, "934064"), (2, 32, 3, 3001, 2, "922128"),
    (5, 32, 5, 131072, 3, "922128m8"), (1, 32, 5, 300, 3, "922128m8"), (4, 32, 5, 4099, 1, "922128"),
    # the second warp-specialized kernel (500000 + 50000 x P + ...; L_out a multiple of 4, C_in 32)
    (3, 32, 5, 1000, 3, "622128m8"), (5, 32, 5, 131072, 3, "622128m8"), (1, 32, 5, 300, 3, "622128"), (2, 32, 3, 3000, 2, "622128"),
    (3, 32, 5, 4096, 1, "622128m8"), (4, 32, 5, 100, 3, "622128m8"), (3, 32, 5, 1000, 3, "592128m8"), (5, 32, 5, 131072, 3, "614128m8"),
    (2, 32, 5, 4092, 2, "614128"), (3, 32, 5, 76, 2, "592128m8"),
    (2, 16, 5, 2048, 3, "842128m8"), (5, 32, 5, 131072, 3, "833128m8"), (1, 32, 5, 300, 3, "832128m8"), (4, 32, 5, 4099, 1, "842128"),
]
VARIANTS = ["592128", "592128m8", "592128m11", "622128m8", "922128"]


def parse_variant(v):
    """'1283r0m4' -> (1283, rot 0, mode 4): wa_run's variant number, lane rotation (r0: off), timing mode (mN)."""
    mode = int(v.split("m")[1]) if "m" in v else 0
    base = v.split("m")[0]
    return int(base.removesuffix("r0")), 0 if base.endswith("r0") else 1, mode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--budget-ms", type=float, default=60.0)
    ap.add_argument("--swap", type=int, default=0, help="exchange the descriptors' LBO and SBO")
    ap.add_argument("--out")
    ap.add_argument("--only", help="run this variant on KernelBench 74 three times and stop (for Nsight Compute)")
    args = ap.parse_args()
    lib = ctypes.CDLL(args.lib)
    lib.wa_run.restype = ctypes.c_int
    lib.wa_run.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 11 + [ctypes.c_void_p]
    dev = torch.device("cuda")
    torch.backends.cudnn.allow_tf32 = True
    out = dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__, cudnn=torch.backends.cudnn.version(),
               checks=[], timing={})

    def run(x, w, y, n, cin, k, L, dil, variant, ctas=0, rot=1, mode=0):
        r = lib.wa_run(x.data_ptr(), w.data_ptr(), y.data_ptr(), n, cin, w.shape[1], k, L, dil, variant, ctas,
                       args.swap, rot, mode, torch.cuda.current_stream().cuda_stream)
        if r <= 0:
            raise RuntimeError(f"wa_run {variant}: {r}")
        return r

    def rel(a, ref):
        return float((a.double() - ref).abs().max() / ref.abs().max())

    bad = 0
    if args.only:
        VARIANTS[:] = [args.only]
    for n, cin, k, L, dil, variant in ([] if args.only else CHECKS):
        x = torch.randn(n, cin, L, device=dev)
        w = torch.randn(cin, 64, k, device=dev) / (cin * k) ** 0.5
        ref = F.conv_transpose1d(x.double(), w.double(), dilation=dil)
        y = torch.full_like(ref, float("nan"), dtype=torch.float32)
        vi, rot, mode = parse_variant(variant)
        run(x, w, y, n, cin, k, L, dil, vi, rot=rot, mode=mode)
        torch.cuda.synchronize()
        e = rel(y, ref) if not y.isnan().any() else float("nan")
        el = rel(convt1d.conv_transpose1d(x, w, dilation=dil), ref)
        ok = e == e and e < 3 * el + 1e-6
        bad += not ok
        rec = dict(n=n, cin=cin, k=k, L=L, dil=dil, variant=variant, rel_err=e, lib_rel_err=el, ok=ok)
        out["checks"].append(rec)
        print(f"check {rec}", flush=True)

    s = KB74
    x = torch.randn(s["n"], s["cin"], s["L"], device=dev)
    w = torch.randn(s["cin"], s["cout"], s["k"], device=dev) / (s["cin"] * s["k"]) ** 0.5
    ref = F.conv_transpose1d(x.double(), w.double(), dilation=s["dil"])
    y = torch.full_like(ref, float("nan"), dtype=torch.float32)
    del ref
    names, fns = [], []
    for v in VARIANTS:
        vi, rot, mode = parse_variant(v)
        ctas = run(x, w, y, s["n"], s["cin"], s["k"], s["L"], s["dil"], vi, rot=rot, mode=mode)
        names.append(f"wa{v}(x{ctas})")
        fns.append(lambda vi=vi, rot=rot, mode=mode: run(x, w, y, s["n"], s["cin"], s["k"], s["L"], s["dil"], vi,
                                                         rot=rot, mode=mode))
        if args.only:
            for _ in range(3):
                fns[-1]()
            torch.cuda.synchronize()
            return 0
    names += ["convt1d", "cudnn"]
    fns += [lambda: convt1d.conv_transpose1d(x, w, dilation=s["dil"]),
            lambda: F.conv_transpose1d(x, w, dilation=s["dil"])]
    ts = rotated_abba_times(len(fns), lambda i: time_kernel(fns[i], dev, budget_ms=args.budget_ms),
                            rounds=args.rounds)
    gbps = copy_bandwidth_gbps(dev)
    nbytes = (x.numel() + y.numel()) * 4
    flop = 2 * s["n"] * s["cin"] * s["cout"] * s["k"] * s["L"]
    for nm, t in zip(names, ts):
        out["timing"][nm] = t
        print(f"kb74 tf32 {nm:>14}: {t:.4f} ms  {nbytes / t / 1e6 / gbps * 100:5.1f}% of copy  "
              f"{flop / t / 1e9:6.1f} TF/s  {ts[-1] / t:.2f}x cudnn", flush=True)
    out["copy_gbps"] = gbps
    if args.out:
        json.dump(out, open(args.out, "w"), indent=1)
    print(f"checks failed: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
