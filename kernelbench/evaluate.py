"""KernelBench-style evaluation of the three transposed-1D problems: Model (nn.ConvTranspose1d) vs
ModelNew (convt1d).

For each problem file: build Model and ModelNew each right after torch.manual_seed(42), move both to
the device, compare outputs on 5 fresh random inputs (torch.allclose, atol = rtol = 1e-2), then time
each over 100 runs (warm-up first) with CUDA events per run, as KernelBench does. Prints correctness
and speedup; --out writes JSON.

    python kernelbench/evaluate.py                         # GPU, full KernelBench sizes
    python kernelbench/evaluate.py --device cpu --small    # CPU smoke run with small inputs
"""
from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = [
    "64_conv_transposed_1D.py",
    "74_conv_transposed_1D_dilated.py",
    "79_conv_transposed_1D_asymmetric_input_square_kernel___padded____strided____dilated__.py",
]


def load(path: str):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def time_runs(fn, inputs, device: torch.device, runs: int, warmup: int) -> list[float]:
    """Milliseconds of each of `runs` calls (CUDA events per call on GPU, perf_counter on CPU)."""
    with torch.no_grad():
        for _ in range(warmup):
            fn(*inputs)
        times = []
        if device.type == "cuda":
            torch.cuda.synchronize(device)
            for _ in range(runs):
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                fn(*inputs)
                end.record()
                torch.cuda.synchronize(device)
                times.append(start.elapsed_time(end))
        else:
            for _ in range(runs):
                t0 = time.perf_counter()
                fn(*inputs)
                times.append((time.perf_counter() - t0) * 1e3)
    return times


def git_commit() -> str:
    # CONVT1D_COMMIT names the commit where the tree has no .git (the GPU machine gets a bare copy).
    if os.environ.get("CONVT1D_COMMIT"):
        return os.environ["CONVT1D_COMMIT"]
    try:
        return subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], cwd=HERE,
                                       stderr=subprocess.DEVNULL, text=True).strip()
    except Exception:
        return "unknown"


def evaluate(path: str, device: torch.device, small: bool, trials: int, runs: int, warmup: int) -> dict:
    mod = load(path)
    if small:  # get_inputs() reads these module globals
        mod.batch_size = min(mod.batch_size, 2)
        mod.length = min(mod.length, 2048)
    init = mod.get_init_inputs()
    torch.manual_seed(42)
    model = mod.Model(*init).to(device)
    torch.manual_seed(42)
    model_new = mod.ModelNew(*init).to(device)
    same_init = all(torch.equal(a, b) for a, b in zip(model.state_dict().values(),
                                                      model_new.state_dict().values()))
    rec = {"problem": os.path.basename(path), "device": str(device), "init_inputs": list(init),
           "input_shape": None, "same_init_weights": same_init, "trials": trials}
    max_abs = max_rel = 0.0
    passed = 0
    torch.manual_seed(0)
    with torch.no_grad():
        for _ in range(trials):
            inputs = [t.to(device) for t in mod.get_inputs()]
            rec["input_shape"] = list(inputs[0].shape)
            ref = model(*inputs)
            out = model_new(*inputs)
            if out.shape != ref.shape:
                rec["error"] = f"shape mismatch: {list(out.shape)} vs {list(ref.shape)}"
                break
            diff = (out.float() - ref.float()).abs()
            max_abs = max(max_abs, diff.max().item())
            # relative to the output's magnitude (element-wise ratios blow up near zero)
            max_rel = max(max_rel, diff.max().item() / max(ref.float().abs().max().item(), 1e-30))
            passed += bool(torch.allclose(out, ref, atol=1e-2, rtol=1e-2))
    rec.update(correct=passed == trials, trials_passed=passed, max_abs_err=max_abs, max_rel_err=max_rel)
    if not rec["correct"]:
        return rec
    inputs = [t.to(device) for t in mod.get_inputs()]
    t_ref = time_runs(model, inputs, device, runs, warmup)
    t_new = time_runs(model_new, inputs, device, runs, warmup)
    rec.update(ref_ms_mean=statistics.fmean(t_ref), ref_ms_median=statistics.median(t_ref),
               ref_ms_std=statistics.pstdev(t_ref), new_ms_mean=statistics.fmean(t_new),
               new_ms_median=statistics.median(t_new), new_ms_std=statistics.pstdev(t_new), runs=runs)
    rec["speedup"] = rec["ref_ms_mean"] / rec["new_ms_mean"]
    return rec


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--small", action="store_true", help="shrink batch and length (CPU smoke runs)")
    ap.add_argument("--strict", action="store_true",
                    help="torch.backends.cudnn.allow_tf32 = False for both sides (default: PyTorch's "
                         "default, TF32 allowed for convolutions)")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--problems", default="", help="comma-separated prefixes, e.g. 64,79")
    ap.add_argument("--out", help="write the results as JSON here")
    args = ap.parse_args(argv)
    device = torch.device(args.device)
    if device.type == "cuda":
        if device.index is None:  # torch 2.11's set_device wants an index
            device = torch.device("cuda", torch.cuda.current_device())
        torch.cuda.set_device(device)
    if args.strict:
        torch.backends.cudnn.allow_tf32 = False
    files = [f for f in FILES if not args.problems or any(f.startswith(p) for p in args.problems.split(","))]
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU"
    try:
        import convt1d
    except ImportError:  # development checkout
        sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
        import convt1d
    print(f"device: {device} ({name}); torch {torch.__version__}; cudnn.allow_tf32="
          f"{torch.backends.cudnn.allow_tf32}; convt1d library {convt1d.library_path}"
          + ("; SMALL sizes" if args.small else ""))
    results = []
    for f in files:
        rec = evaluate(os.path.join(HERE, f), device, args.small, args.trials, args.runs, args.warmup)
        results.append(rec)
        line = (f"{f[:40]:40s} input {rec['input_shape']} correct={rec['correct']} "
                f"({rec['trials_passed']}/{args.trials}) max_abs={rec['max_abs_err']:.2e} "
                f"max_rel={rec['max_rel_err']:.2e}")
        if "speedup" in rec:
            line += (f" | ref {rec['ref_ms_mean']:.4f} ms, convt1d {rec['new_ms_mean']:.4f} ms, "
                     f"speedup {rec['speedup']:.2f}x")
        print(line, flush=True)
    if args.out:
        header = {"device": str(device), "device_name": name, "torch": torch.__version__,
                  "cudnn": torch.backends.cudnn.version() if device.type == "cuda" else None,
                  "allow_tf32": torch.backends.cudnn.allow_tf32, "small": args.small,
                  "git_commit": git_commit(),
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
        with open(args.out, "w") as fh:
            json.dump({"header": header, "results": results}, fh, indent=1)
        print(f"wrote {args.out}")
    return 0 if all(r["correct"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
