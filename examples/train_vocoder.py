"""Train a small vocoder-style upsampling stack with convt1d and with torch.nn.ConvTranspose1d.

Both models start from the same weights (convt1d's module takes nn.ConvTranspose1d's state_dict as is),
see the same batches and use the same optimizer. The loss curves must agree within tolerance; the script
prints both wall times and exits non-zero when the curves disagree.

    python examples/train_vocoder.py [--device cuda] [--steps 300] [--tf32]

Without --tf32, both sides compute fp32-accurately (cudnn.allow_tf32 = False), so the curves agree
closely; with it both use TF32 and drift apart faster (same mode on both sides either way).
"""
import argparse
import math
import time

import torch
import torch.nn as nn

import convt1d

# (in_channels, out_channels, kernel_size, stride, padding): HiFi-GAN-like, x4 x4 x2 = 32x upsampling.
LAYERS = [(128, 64, 8, 4, 2), (64, 32, 8, 4, 2), (32, 16, 4, 2, 1)]


def make_model(conv_cls):
    layers = []
    for cin, cout, k, s, p in LAYERS:
        layers += [conv_cls(cin, cout, k, stride=s, padding=p), nn.LeakyReLU(0.1)]
    layers += [nn.Conv1d(LAYERS[-1][1], 1, 7, padding=3), nn.Tanh()]
    return nn.Sequential(*layers)


def batches(steps, batch, frames, device, seed, teacher):
    """Random mel-like features; the target is a fixed random teacher network's waveform for them,
    so the task is learnable and the loss falls steadily."""
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        feats = torch.randn(batch, LAYERS[0][0], frames, generator=g).to(device)
        with torch.no_grad():
            target = teacher(feats)
        yield feats, target


def train(model, device, args, teacher):
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    losses = []
    if device.type == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    for feats, target in batches(args.steps, args.batch, args.frames, device, seed=1, teacher=teacher):
        loss = nn.functional.mse_loss(model(feats), target)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    if device.type == "cuda":
        torch.cuda.synchronize()
    return torch.stack(losses).cpu(), time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--frames", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--tf32", action="store_true", help="allow TF32 on both sides (PyTorch's default)")
    ap.add_argument("--rtol", type=float, default=None, help="max relative loss difference allowed")
    args = ap.parse_args()
    device = torch.device(args.device)
    torch.backends.cudnn.allow_tf32 = args.tf32
    torch.backends.cuda.matmul.allow_tf32 = args.tf32

    torch.manual_seed(123)
    teacher = make_model(nn.ConvTranspose1d).to(device).eval()
    torch.manual_seed(0)
    ref = make_model(nn.ConvTranspose1d).to(device)
    ours = make_model(convt1d.ConvTranspose1d).to(device)
    ours.load_state_dict(ref.state_dict())  # same initialization, same keys

    # Warm-up outside the timed region (module load, kernel selection, cuDNN heuristics).
    for m in (ref, ours):
        feats, target = next(batches(1, args.batch, args.frames, device, seed=99, teacher=teacher))
        nn.functional.mse_loss(m(feats), target).backward()
        m.zero_grad(set_to_none=True)

    loss_ref, t_ref = train(ref, device, args, teacher)
    loss_ours, t_ours = train(ours, device, args, teacher)
    rel = ((loss_ours - loss_ref).abs() / loss_ref.abs()).max().item()
    rtol = args.rtol if args.rtol is not None else (5e-2 if args.tf32 else 1e-2)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU"
    print(f"device {name}; {args.steps} steps, batch {args.batch}, {args.frames} frames -> "
          f"{args.frames * math.prod(s for *_, s, _ in LAYERS)} samples; tf32 {args.tf32}")
    for i in sorted({0, args.steps // 4, args.steps // 2, 3 * args.steps // 4, args.steps - 1}):
        print(f"  step {i:4d}  loss nn.ConvTranspose1d {loss_ref[i]:.6f}  convt1d {loss_ours[i]:.6f}")
    print(f"max relative loss difference {rel:.2e} (tolerance {rtol:.0e}); "
          f"wall time nn.ConvTranspose1d {t_ref:.2f} s, convt1d {t_ours:.2f} s")
    ok = rel <= rtol and bool(torch.isfinite(loss_ours).all()) and loss_ours[-1] < 0.5 * loss_ours[0]
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
