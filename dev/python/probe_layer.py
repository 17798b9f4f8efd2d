"""One suite layer's tensors for the backward probes (l2_blocked_probe.py, concurrent_bwd_probe.py): the shape from
the package's problems.json (convt1d.bench.load_shapes), and per precision mode fresh random x, w and grad_y on the GPU,
with cuDNN's TF32 flag set as the mode says."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from convt1d.bench import load_shapes  # noqa: E402

DTYPES = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def layer_args(name):
    """(shape dict, (stride, padding, output_padding, groups, dilation)) of suite layer name."""
    c = load_shapes(name)[0]
    return c, (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])


def layer_tensors(c, args, mode):
    """x, w, grad_y for mode (weights scaled by 0.05, no bias), on the GPU."""
    dt = DTYPES[mode]
    torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
    x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
    w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], device="cuda", dtype=dt) * 0.05
    y = torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args)
    return x, w, torch.randn_like(y)
