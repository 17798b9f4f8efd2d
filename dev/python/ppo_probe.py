"""Ordered ping-pong (fwd_wgmma_rs_kernel, WgArgs::ppo) checked at sizes where every block walks many tiles.

Each variant (an env setting) runs in its own process, so that a crash is reported and the rest go on; its output is
compared bit for bit (two checksums) with the first variant's (ping-pong order changes no sum: each output's MMAs run in the same
order) and with float64.

    python dev/python/ppo_probe.py --sizes 8x16384,64x65536 --modes fp32 \
        --variants base=CONVT1D_WGMMA_RS_PPO:0,s2=CONVT1D_WGMMA_RS_PPO:2,s3=CONVT1D_WGMMA_RS_PPO:1
"""
import argparse
import os
import subprocess
import sys
import tempfile

import torch


def child(n, L, mode, out):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
    import convt1d
    torch.backends.cudnn.allow_tf32 = mode != "fp32_strict"
    dt = {"fp32": torch.float32, "fp32_strict": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[mode]
    g = torch.Generator(device="cuda").manual_seed(7)
    x = torch.randn(n, 128, L, device="cuda", dtype=dt, generator=g)
    w = torch.randn(128, 128, 3, device="cuda", dtype=dt, generator=g) * 0.1
    y0 = convt1d.conv_transpose1d(x, w)
    same = all(torch.equal(y0, convt1d.conv_transpose1d(x, w)) for _ in range(2))
    # The bits of y as two checksums (the whole tensor does not travel): the sum of its words, and the sum weighted
    # by position mod a prime (catches swapped or shifted values).
    words = y0.view(torch.int32 if y0.element_size() == 4 else torch.int16).reshape(-1).long()
    pos = torch.arange(words.numel(), device=words.device) % 1000003
    ck = (int(words.sum()), int((words * pos).sum()))
    ref = torch.nn.functional.conv_transpose1d(x[:1].double(), w.double())
    err = float((y0[:1].double() - ref).norm() / ref.norm())
    torch.save({"ck": ck, "repeat_same": same, "err_sample0": err}, out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="8x16384")
    ap.add_argument("--modes", default="fp32")
    ap.add_argument("--variants", default="")
    ap.add_argument("--child", nargs=4)
    a = ap.parse_args()
    if a.child:
        n, L, mode, out = a.child
        return child(int(n), int(L), mode, out)
    variants = []
    for v in a.variants.split(","):
        name, _, spec = v.partition("=")
        variants.append((name, dict(kv.split(":", 1) for kv in spec.split("+")) if spec else {}))
    tmp = tempfile.mkdtemp()
    for size in a.sizes.split(","):
        n, L = (int(t) for t in size.split("x"))
        for mode in a.modes.split(","):
            first = None
            for name, env in variants:
                out = os.path.join(tmp, f"{name}_{size}_{mode}.pt")
                e = dict(os.environ, **env)
                r = subprocess.run([sys.executable, __file__, "--child", str(n), str(L), mode, out], env=e,
                                   capture_output=True, text=True, timeout=300)
                if r.returncode != 0:
                    msg = [l for l in (r.stderr or "").splitlines() if "Error" in l or "error" in l][-1:]
                    print(f"{size} {mode} {name}: FAILED rc {r.returncode} {msg}", flush=True)
                    continue
                d = torch.load(out)
                if first is None:
                    first = d["ck"]
                print(f"{size} {mode} {name}: same bits as {variants[0][0]} {d['ck'] == first}, repeat_same "
                      f"{d['repeat_same']}, rel err (sample 0) {d['err_sample0']:.3g}", flush=True)


if __name__ == "__main__":
    main()
