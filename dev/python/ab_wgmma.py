"""A/B timing of the Hopper wgmma forward (src/cuda/fwd_wgmma.cu) against the mma.sync kernel and cuDNN,
all in one process: CONVT1D_WGMMA / CONVT1D_WGMMA_BR are read at every call, so each variant is one
env setting. Also checks each variant's output against cuDNN in float64 (max-norm relative error).
A variant is a name from VARIANTS or an inline setting, name=VAR:value+VAR:value (variables not named
are unset). --kind bwd_input / bwd_weight / bwd_bias times grad_input / grad_weight / grad_bias alone (the library's backward op
with mask [1, 0, 0] / [0, 1, 0] against aten's convolution_backward).

    python dev/python/ab_wgmma.py --shapes upsample_x8_bias,codec_dec_s8 --modes fp32,fp16 --out ab.json
    python dev/python/ab_wgmma.py --shapes kernelbench_74 --variants old=CONVT1D_WGMMA_RS_EPI:direct,shipped

Timing order (--order): abba by default, cuDNN and the variants timed in order and then in reverse, each the mean of
its two medians (convt1d.bench.abba_times); --order once times each once in the order given, as runs up to 136 did
(there the first slot ran fast on power-hungry layers: compare away from it).
"""
import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import convt1d  # noqa: E402
from convt1d.bench import _aten_bwd, load_shapes, rotated_abba_times, time_kernel  # noqa: E402

VARIANTS = {"mma_sync": {"CONVT1D_WGMMA": "0"}, "wg128": {"CONVT1D_WGMMA": "1", "CONVT1D_WGMMA_BR": "128"},
            "wg128x2": {"CONVT1D_WGMMA": "1", "CONVT1D_WGMMA_BR": "128x2"},
            "wg256": {"CONVT1D_WGMMA": "1", "CONVT1D_WGMMA_BR": "256"}, "shipped": {}}
DT = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--modes", default="fp32,fp16,bf16")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--budget-ms", type=float, default=80)
    ap.add_argument("--kind", default="fwd", choices=["fwd", "bwd_input", "bwd_weight", "bwd_bias"])
    ap.add_argument("--order", default="abba", choices=["abba", "rotate", "once"],
                    help="abba (default): cuDNN and every variant timed in order then reversed, each the mean of its "
                         "two medians; rotate: that in --rounds rounds, each starting one entry later "
                         "(convt1d.bench.rotated_abba_times: a bias by place in the sequence cancels too; --rounds "
                         "times as long); once: each timed once in the order given (sessions up to 14)")
    ap.add_argument("--rounds", type=int, default=0, help="--order rotate: rounds (0: one per entry)")
    ap.add_argument("--out")
    ap.add_argument("--problems", help="a problems.json of its own (the package's by default): layers outside the suite")
    a = ap.parse_args()
    variants = {}
    for v in a.variants.split(","):
        name, _, spec = v.partition("=")
        variants[name] = dict(kv.split(":", 1) for kv in spec.split("+")) if spec else VARIANTS.get(name, {})
    keys = {k for env in list(variants.values()) + list(VARIANTS.values()) for k in env}
    recs = []
    for c in (load_shapes(a.shapes, a.problems) if a.problems else load_shapes(a.shapes)):
        for mode in a.modes.split(","):
            dt = DT[mode]
            torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"  # both sides, read at every call
            g = torch.Generator(device="cuda").manual_seed(1234)
            x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dt, generator=g)
            w = torch.randn(c["Cin"], c["Cout"] // c["groups"], c["K"], device="cuda", dtype=dt, generator=g) * 0.05
            b = torch.randn(c["Cout"], device="cuda", dtype=dt, generator=g) if c["bias"] else None
            kw = dict(stride=c["stride"], padding=c["padding"], output_padding=c["output_padding"],
                      groups=c["groups"], dilation=c["dilation"])
            if a.kind == "fwd":
                r = F.conv_transpose1d(x.double(), w.double(), None if b is None else b.double(), **kw)
                theirs = lambda: F.conv_transpose1d(x, w, b, **kw)  # noqa: E731
                mine = lambda: convt1d.conv_transpose1d(x, w, b, **kw)  # noqa: E731
            else:
                lout = (c["L"] - 1) * c["stride"] - 2 * c["padding"] + c["dilation"] * (c["K"] - 1) + c["output_padding"] + 1
                gy = torch.randn(c["N"], c["Cout"], lout, device="cuda", dtype=dt, generator=g)
                mask = [a.kind == "bwd_input", a.kind == "bwd_weight", a.kind == "bwd_bias"]
                gi = mask.index(True)
                bsz = [c["Cout"]] if a.kind == "bwd_bias" else None
                r = _aten_bwd(gy.double(), x.double(), w.double(), c, mask, bsz)[gi]
                theirs = lambda: _aten_bwd(gy, x, w, c, mask, bsz)[gi]  # noqa: E731
                mine = lambda: torch.ops.convt1d.conv_transpose1d_backward(  # noqa: E731
                    gy, x, w, c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"], mask)[gi]
            rec = dict(name=c["name"], mode=mode, kind=a.kind, order=a.order)
            flops = 2.0 * c["N"] * c["L"] * c["Cin"] * (c["Cout"] // c["groups"]) * c["K"]
            names = list(variants)

            def time_one(i, check=False):
                """Entry 0 is cuDNN; entry i > 0 variant names[i-1], its env set only while it runs."""
                if i == 0:
                    return time_kernel(theirs, x.device, budget_ms=budget)
                saved = {k: os.environ.get(k) for k in keys}
                for k in saved:
                    os.environ.pop(k, None)
                os.environ.update(variants[names[i - 1]])
                try:
                    if check:
                        y = mine()
                        return ((y.double() - r).abs().max() / r.abs().max()).item()
                    return time_kernel(mine, x.device, budget_ms=budget)
                finally:
                    for k, val in saved.items():
                        os.environ.pop(k, None)
                        if val is not None:
                            os.environ[k] = val

            for i, v in enumerate(names, 1):
                rec[v + "_err"] = time_one(i, check=True)
            if a.order != "once":  # in order then reversed, in one round (abba) or rounds each one entry later
                budget = a.budget_ms / 2
                times = rotated_abba_times(len(names) + 1, time_one, 1 if a.order == "abba" else a.rounds)
            else:  # once each, in the order given (the first slot can run fast on power-hungry layers)
                budget = a.budget_ms
                times = [time_one(i) for i in range(len(names) + 1)]
            rec["cudnn_ms"] = times[0]
            for v, ms in zip(names, times[1:]):
                rec[v + "_ms"], rec[v + "_tflops"] = ms, flops / ms / 1e9
            recs.append(rec)
            line = f"{c['name']:24s} {mode:11s} cudnn {rec['cudnn_ms']:7.3f}"
            for v in variants:
                line += f" | {v} {rec[v + '_ms']:7.3f} ({rec['cudnn_ms'] / rec[v + '_ms']:4.2f}x, {rec[v + '_tflops']:5.0f} TF/s, err {rec[v + '_err']:.1e})"
            print(line, flush=True)
    if a.out:
        json.dump(dict(gpu=torch.cuda.get_device_name(), torch=torch.__version__, cudnn=torch.backends.cudnn.version(),
                       commit=os.environ.get("CONVT1D_COMMIT", ""), records=recs), open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
