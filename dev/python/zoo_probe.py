"""Which kernels a zoo layer runs, and for how long (torch.profiler, CUDA activity): the forward and, with --backward,
the backward (grad_input, grad_weight, grad_bias in one call), per precision mode, under the environment the caller set
(A/B by running it under different CONVT1D_* switches). Session 49, for the zoo rows below cuDNN (run 445).

    python dev/python/zoo_probe.py --shapes dac_44k_up1_train,dac_44k_up1_infer --modes fp16,fp32 [--backward]
"""
import argparse
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import convt1d  # noqa: E402,F401  (registers torch.ops.convt1d)
from convt1d.bench import load_shapes  # noqa: E402

DT = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def kernels(fn, reps):
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            fn()
        torch.cuda.synchronize()
    rows = [(e.key, e.device_time_total / reps, e.count // reps) for e in prof.key_averages() if e.device_time_total > 0]
    return sorted(rows, key=lambda r: -r[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--modes", default="fp32,fp32_strict,fp16,bf16")
    ap.add_argument("--problems", default=os.path.join(ROOT, "bench", "zoo.json"))
    ap.add_argument("--backward", action="store_true")
    ap.add_argument("--reps", type=int, default=20)
    a = ap.parse_args()
    env = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("CONVT1D_") and k not in
                   ("CONVT1D_LIBRARY", "CONVT1D_COMMIT"))
    print(f"# env: {env or '(defaults)'}")
    for c in load_shapes(a.shapes, a.problems):
        args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
        for mode in a.modes.split(","):
            torch.backends.cudnn.allow_tf32 = mode == "fp32"
            dt = DT[mode]
            x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
            w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], device="cuda", dtype=dt) * 0.05
            b = torch.randn(c["Cout"], device="cuda", dtype=dt) if c.get("bias") else None
            y = torch.ops.convt1d.conv_transpose1d.default(x, w, b, *args)
            gy = torch.randn_like(y)
            fns = [("fwd", lambda: torch.ops.convt1d.conv_transpose1d.default(x, w, b, *args))]
            if a.backward:
                mask = [True, True, b is not None]
                fns.append(("bwd", lambda: torch.ops.convt1d.conv_transpose1d_backward.default(gy, x, w, *args, mask)))
            for what, fn in fns:
                rows = kernels(fn, a.reps)
                tot = sum(r[1] for r in rows)
                print(f"{c['name']} {mode} {what}: {tot:.1f} us of kernels per call")
                for k, t, n in rows[:6]:
                    print(f"    {t:8.1f} us  x{n}  {k[:150]}")


if __name__ == "__main__":
    main()
