"""Timing probe of the register-A wgmma forward (run 36): per shape and dtype, the kernel as built and with
CONVT1D_WGMMA_RS_DEBUG=1 (no epilogue stores), 2 (no MMAs), 3 (neither): where its time goes. Then the
stride-1 grad_input (grad_y rows are no 16-byte multiple) through the RS kernel's cp.async staging vs the
shipped path. Prints ms (do_bench medians).

The debug switch lived in the kernel only at commit b9fb5af (run 36; removed after: its skip-MMA branch made
ptxas serialize the wgmmas, warning C7515, so that build's "full" times run ~15% slow); the record is
bench/results/ab/rs_probe_run36.txt."""
import json
import os
import sys

import torch
import triton.testing

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import convt1d  # noqa: E402

suite = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}


def run(name, dt, tf32, grad_input=False):
    c = suite[name]
    torch.backends.cudnn.allow_tf32 = tf32
    x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
    w = torch.randn(c["Cin"], c["Cout"], c["K"], device="cuda", dtype=dt) * 0.1
    args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    if grad_input:
        y = torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args)
        gy = torch.randn_like(y)
        f = lambda: torch.ops.convt1d.conv_transpose1d_backward.default(gy, x, w, *args, [True, False, False])
    else:
        f = lambda: torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args)
    return triton.testing.do_bench(f, warmup=25, rep=150)


os.environ["CONVT1D_WGMMA_RS"] = "1"
for name in ("kernelbench_64", "kernelbench_74", "hifigan_up3", "upsample_x8_bias"):
    for dt, tf32, label in ((torch.float32, True, "tf32"), (torch.bfloat16, True, "bf16")):
        row = []
        for dbg in ("0", "1", "2", "3"):
            os.environ["CONVT1D_WGMMA_RS_DEBUG"] = dbg
            row.append(run(name, dt, tf32))
        os.environ["CONVT1D_WGMMA_RS_DEBUG"] = "0"
        print(f"{name:18s} {label:5s} full {row[0]:.3f}  no-store {row[1]:.3f}  no-mma {row[2]:.3f}  neither {row[3]:.3f}", flush=True)
del os.environ["CONVT1D_WGMMA_RS"]
for name in ("kernelbench_64", "kernelbench_74"):
    for dt, tf32, label in ((torch.float32, True, "tf32"), (torch.float32, False, "strict"), (torch.bfloat16, True, "bf16")):
        os.environ["CONVT1D_WGMMA_RS_CPASYNC"] = ""
        base = run(name, dt, tf32, grad_input=True)
        os.environ["CONVT1D_WGMMA_RS_CPASYNC"] = "auto"
        cp = run(name, dt, tf32, grad_input=True)
        os.environ["CONVT1D_WGMMA_RS_CPASYNC"] = ""
        print(f"{name:18s} {label:6s} grad_input shipped {base:.3f}  rs-cp.async {cp:.3f}", flush=True)
