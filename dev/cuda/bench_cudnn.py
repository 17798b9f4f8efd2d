"""cuDNN baseline for dev/cuda/fwd_tc_dev: torch.nn.functional.conv_transpose1d on the same shapes,
timed the same way (CUDA events around each call, 3 warm-ups, median of 15, no L2 flush), with
torch.backends.cudnn.allow_tf32 set per mode. Also a device-to-device copy bandwidth.
Prints CUDNN,shape,mode,ms lines and a COPY line."""
import json
import os
import sys

import torch
import torch.nn.functional as F

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
suite = json.load(open(os.path.join(ROOT, "tests", "problems.json")))["suite"]
only = set(sys.argv[1:])


def med(fn, warm=3, reps=15):
    for _ in range(warm):
        fn()
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b))
    ts.sort()
    return ts[len(ts) // 2]


dev = "cuda"
print("torch", torch.__version__, "cudnn", torch.backends.cudnn.version(), torch.cuda.get_device_name(0), flush=True)
x = torch.empty(1 << 28, dtype=torch.float32, device=dev)
z = torch.empty_like(x)
ms = med(lambda: z.copy_(x))
print("COPY,%.4f ms,%.3f TB/s (bytes read + written)" % (ms, 2 * x.numel() * 4 / ms / 1e9), flush=True)
del x, z
for c in suite:
    if only and c["name"] not in only:
        continue
    for mode in ("tf32", "strict", "f16", "bf16"):
        torch.backends.cudnn.allow_tf32 = mode == "tf32"
        dt = {"tf32": torch.float32, "strict": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[mode]
        x = torch.rand(c["N"], c["Cin"], c["L"], device=dev, dtype=dt) * 2 - 1
        w = torch.rand(c["Cin"], c["Cout"] // c["groups"], c["K"], device=dev, dtype=dt) * 2 - 1
        b = torch.rand(c["Cout"], device=dev, dtype=dt) if c["bias"] else None
        kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"],
                  groups=c["groups"], dilation=c["dilation"])
        with torch.no_grad():
            t = med(lambda: F.conv_transpose1d(x, w, b, **kw))
        print("CUDNN,%s,%s,%.4f" % (c["name"], mode, t), flush=True)
        del x, w, b
        torch.cuda.empty_cache()
