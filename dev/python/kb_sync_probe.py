"""Where a synchronized KernelBench call's time goes (kernelbench/evaluate.py times each call alone: start event,
forward, end event, synchronize), against the suite's back-to-back timing of the same forward.

For each problem (fp32, TF32 allowed): the median of synchronized calls of ModelNew and Model (as evaluate.py),
the median of back-to-back calls (no synchronize between, per-call mean over a batch), and one synchronized ModelNew
call under torch.profiler: every CUDA runtime / driver call and every kernel, with its start (us from the call's
first event) and duration.

    python dev/python/kb_sync_probe.py [64 74 79]
"""
import glob
import importlib.util
import os
import statistics
import sys

import torch

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))


def load(num):
    path = glob.glob(os.path.join(REPO, "kernelbench", f"{num}_*.py"))[0]
    spec = importlib.util.spec_from_file_location(f"kb{num}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def synced(fn, x, runs=50):
    out = []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn(x)
        e.record()
        torch.cuda.synchronize()
        out.append(s.elapsed_time(e))
    return statistics.median(out)


def back_to_back(fn, x, batch=20, reps=5):
    out = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(batch):
            fn(x)
        e.record()
        torch.cuda.synchronize()
        out.append(s.elapsed_time(e) / batch)
    return statistics.median(out)


def main():
    nums = sys.argv[1:] or ["64", "74", "79"]
    torch.backends.cudnn.allow_tf32 = True
    for num in nums:
        mod = load(num)
        init = mod.get_init_inputs()
        torch.manual_seed(42)
        ref = mod.Model(*init).cuda()
        torch.manual_seed(42)
        new = mod.ModelNew(*init).cuda()
        x = mod.get_inputs()[0].cuda()
        with torch.no_grad():
            for f in (ref, new):
                for _ in range(5):
                    f(x)
            torch.cuda.synchronize()
            print(f"== {num}: synced ModelNew {synced(new, x):.4f} ms, Model {synced(ref, x):.4f} ms; "
                  f"back to back ModelNew {back_to_back(new, x):.4f} ms, Model {back_to_back(ref, x):.4f} ms", flush=True)
            from torch.profiler import ProfilerActivity, profile
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                new(x)
                torch.cuda.synchronize()
            evs = [e for e in prof.events() if e.device_type is not None]
            t0 = min(e.time_range.start for e in evs)
            rows = []
            for e in evs:
                kind = "gpu" if str(e.device_type).endswith("CUDA") else "cpu"
                if kind == "cpu" and not (e.name.startswith(("cuda", "cu")) or e.name.startswith("convt1d")
                                          or e.name.startswith("aten::empty")):
                    continue
                rows.append((e.time_range.start - t0, e.time_range.end - e.time_range.start, kind, e.name[:90]))
            for start, dur, kind, name in sorted(rows):
                print(f"  {start:9.1f} us  {dur:9.1f} us  {kind}  {name}")


if __name__ == "__main__":
    main()
