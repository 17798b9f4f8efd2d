"""Where does the fused one-phase forward's time go? Times fwd_phase_fused_kernel on suite shapes with parts
left out (CONVT1D_FUSED_DBG bits: 1 no y stores, 2 no math, 4 no x staging) and other grid sizes
(CONVT1D_FUSED_BPS blocks per SM), vector stores instead of bulk copies (bulk=0), each variant one env setting read at every call.

    python dev/python/fused_probe.py kernelbench_79:fp32 kernelbench_79:bf16
"""
import json
import os
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402,F401

suite = {p["name"]: p for p in json.load(open(os.path.join(os.path.dirname(convt1d.__file__), "problems.json")))["suite"]}
os.environ["CONVT1D_FWD_FUSED"] = "1"
variants = os.environ.get("PROBE_VARIANTS", "dbg=0,dbg=1,dbg=2,dbg=4,dbg=3,dbg=6,dbg=7,bps=1,bps=3,bps=4").split(",")
for spec in sys.argv[1:]:
    name, mode = spec.split(":")
    c = suite[name]
    dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[mode]
    torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
    x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt)
    w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], device="cuda", dtype=dt) * 0.1
    args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    f = lambda: torch.ops.convt1d.conv_transpose1d.default(x, w, None, *args)  # noqa: E731
    y = f()
    nbytes = x.numel() * x.element_size() + y.numel() * y.element_size()
    cp = torch.empty(nbytes // 4, device="cuda", dtype=torch.float32)
    cp2 = torch.empty_like(cp)
    copy_ms = do_bench(lambda: cp2.copy_(cp), warmup=20, rep=100, return_mode="median")
    line = f"{name}:{mode} bytes {nbytes / 1e9:.2f} GB, copy of those bytes {copy_ms:.3f} ms |"
    for v in variants:
        k, val = v.split("=")
        env = {"dbg": "CONVT1D_FUSED_DBG", "bps": "CONVT1D_FUSED_BPS", "bulk": "CONVT1D_FUSED_BULK"}[k]
        os.environ[env] = val
        ms = do_bench(f, warmup=20, rep=100, return_mode="median")
        os.environ.pop(env)
        line += f" {v} {ms:.3f}"
    print(line, flush=True)
