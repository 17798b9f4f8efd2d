"""Where the rounded TF32 boxes (CONVT1D_WGMMA_RS_RX=1) differ from per-use rounding (=0): for a few layers and
register-A options, the (sample, channel, column) extent of the differing outputs. Session 27 debugging aid."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "python"))
import convt1d  # noqa: E402
from helpers import kwargs, make_inputs, ref, rel_err  # noqa: E402

torch.backends.cudnn.allow_tf32 = True
os.environ["CONVT1D_WGMMA_RS"] = "1"


def layer(N, Cin, Cout, K, L, padding=0, dilation=1):
    return dict(name=f"N{N}_ci{Cin}_co{Cout}_k{K}_p{padding}_d{dilation}", N=N, Cin=Cin, Cout=Cout, K=K, L=L, stride=1,
                padding=padding, output_padding=0, groups=1, dilation=dilation, bias=False)


layers = [layer(3, 48, 24, 3, 4096, 7), layer(3, 48, 64, 3, 4096, 7), layer(3, 32, 24, 3, 4096, 7),
          layer(3, 48, 24, 3, 4096, 0), layer(2, 48, 24, 3, 4096, 7), layer(4, 16, 16, 9, 16384, 4, 2),
          layer(4, 32, 64, 9, 16384, 4, 2), layer(4, 32, 16, 9, 16384, 4, 2)]
opts = {"default": {}, "nowres": {"CONVT1D_WGMMA_RS_WRES": "0"}, "direct": {"CONVT1D_WGMMA_RS_EPI": "direct"},
        "pp": {"CONVT1D_WGMMA_RS_PP": "1"}}
for c in layers:
    g = torch.Generator().manual_seed(5)
    x, w, b = make_inputs(c, dtype=torch.float32, device="cuda", gen=g)
    y64 = ref(x, w, b, c)
    for on, env in opts.items():
        for k, v in env.items():
            os.environ[k] = v
        ys = {}
        for rx in "01":
            os.environ["CONVT1D_WGMMA_RS_RX"] = rx
            ys[rx] = [convt1d.conv_transpose1d(x, w, b, **kwargs(c)) for _ in range(3)]
        for k in env:
            del os.environ[k]
        e0 = rel_err(ys["0"][0], y64)
        errs = [rel_err(y, y64) for y in ys["1"]]
        d = (ys["1"][0] - ys["0"][0]).abs() > 1e-3 * (1 + ys["0"][0].abs())
        where = ""
        if d.any():
            idx = d.nonzero()
            cols = idx[:, 2]
            where = (f"n {sorted(set(idx[:, 0].tolist()))} co {idx[:, 1].min().item()}-{idx[:, 1].max().item()} "
                     f"cols {cols.min().item()}-{cols.max().item()} ({d.sum().item()} of {d.numel()}), per 256-col tile: "
                     f"{sorted(set((cols // 256).tolist()))[:12]}")
        print(f"{c['name']:34s} {on:8s} err rx0 {e0:.1e} rx1 {' '.join(f'{e:.1e}' for e in errs)} {where}", flush=True)
