"""SM clock and board power while one layer's forward runs back to back (convt1d, then cuDNN), per precision mode:
whether the tensor-core-bound layers run at the card's boost clock or under its power limit. nvidia-smi samples every
50 ms in the background; each (layer, mode, side) runs ~2 s, and the median of its samples past the first 0.5 s is
reported with the time per call. Session 27.

    python dev/python/clock_probe.py --shapes hifigan_up1,upsample_x8_bias --modes fp16,bf16,fp32
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d.bench import load_shapes  # noqa: E402

DT = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--modes", default="fp16,bf16,fp32")
    ap.add_argument("--seconds", type=float, default=2.0)
    a = ap.parse_args()
    log = "/tmp/clock_probe_smi.csv"
    smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu",
                            "--format=csv,noheader,nounits", "-lms", "50"], stdout=open(log, "w"))
    time.sleep(1.0)
    spans = []
    try:
        for c in load_shapes(a.shapes):
            kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"], groups=c["groups"],
                      dilation=c["dilation"])
            for mode in a.modes.split(","):
                torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
                dt = DT[mode]
                g = torch.Generator(device="cuda").manual_seed(7)
                x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt, generator=g)
                w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], device="cuda", dtype=dt, generator=g) * 0.05
                b = torch.randn(c["Cout"], device="cuda", dtype=dt, generator=g) if c["bias"] else None
                for side, fn in (("convt1d", convt1d.conv_transpose1d), ("cudnn", F.conv_transpose1d)):
                    fn(x, w, b, **kw)
                    torch.cuda.synchronize()
                    t0 = time.time()
                    n = 0
                    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    e0.record()
                    while time.time() - t0 < a.seconds:
                        for _ in range(10):
                            fn(x, w, b, **kw)
                        n += 10
                        torch.cuda.synchronize()
                    e1.record()
                    torch.cuda.synchronize()
                    spans.append((c["name"], mode, side, t0 + 0.5, time.time(), e0.elapsed_time(e1) / n))
                    time.sleep(0.3)
    finally:
        time.sleep(0.2)
        smi.terminate()
        smi.wait()
    rows = []
    for line in open(log):
        p = [v.strip() for v in line.split(",")]
        try:
            ts = time.mktime(time.strptime(p[0].split(".")[0], "%Y/%m/%d %H:%M:%S")) + float("0." + p[0].split(".")[1])
            rows.append((ts, float(p[1]), float(p[2]), float(p[3])))
        except (ValueError, IndexError):
            continue
    print(f"{'layer':20s} {'mode':6s} {'side':8s} {'ms/call':>8s} {'SM MHz':>7s} {'W':>6s} {'C':>4s} samples")
    for name, mode, side, t0, t1, ms in spans:
        s = [r for r in rows if t0 <= r[0] <= t1]
        if not s:
            print(f"{name:20s} {mode:6s} {side:8s} {ms:8.3f}  (no samples)")
            continue
        print(f"{name:20s} {mode:6s} {side:8s} {ms:8.3f} {statistics.median(r[1] for r in s):7.0f} "
              f"{statistics.median(r[2] for r in s):6.0f} {statistics.median(r[3] for r in s):4.0f} {len(s)}", flush=True)


if __name__ == "__main__":
    main()
