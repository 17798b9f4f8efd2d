"""grad_input of a strided transposed convolution as ONE stride-1 transposed convolution.

Why: grad_input of ConvTranspose1d(stride s) is a strided conv1d of grad_y. Our tensor-core backward
kernel for it is slow on the stride-8 vocoder layers (0.11-0.18x of cuDNN on an H100, see
bench/results/h100_fwd_bwd.json), while the forward tensor-core kernel is at its best at stride 1.
This script checks the identity that lets the backward reuse the stride-1 forward:

  split grad_y into s phase planes  G[n, (co, r), j] = gy[n, co, (j + j0) * s + r]   (zero outside),
  with e_k = floor((k*d - p) / s), r_k = (k*d - p) mod s, j0 = min_k e_k, P = max_k e_k - j0:

  grad_x = conv_transpose1d(G, W', stride=1, padding=P, groups=G)           # length L_in exactly
  W'[(g, co, r), ci, P - (e_k - j0)] = w[g*Cin_g + ci, co, k]  for every tap k with r_k = r.

G has C_out * s channels and L_in + P positions; the FLOPs grow by s*(P+1)/K (1.5x for stride 8, K 16).
At stride 1 the kernel skips the planes and runs the adjoint forward on grad_y itself
(grad_input_via_adjoint below, checked here too).
Run: python dev/python/bwd_input_phase_planes.py   (CPU, float64, random configurations; exits 1 on a mismatch)
"""
import random
import sys

import torch
import torch.nn.functional as F


def grad_input_via_phase_planes(gy, w, stride, padding, dilation, groups, l_in):
    n, cout, l_out = gy.shape
    cin, cout_g, k_size = w.shape
    s, p, d, g = stride, padding, dilation, groups
    cin_g = cin // g
    e = [(k * d - p) // s for k in range(k_size)]  # floor division, as in the C core
    r = [(k * d - p) % s for k in range(k_size)]
    j0 = min(e)
    big_p = max(e) - j0
    l_g = l_in + big_p
    # Phase planes: G[n, g, co, r, j] = gy[n, g*cout_g + co, (j + j0)*s + r]
    pos = (torch.arange(l_g).view(1, -1) + j0) * s + torch.arange(s).view(-1, 1)  # [s, l_g]
    valid = (pos >= 0) & (pos < l_out)
    planes = gy[:, :, pos.clamp(0, l_out - 1)] * valid  # [n, cout, s, l_g]
    planes = planes.reshape(n, g, cout_g * s, l_g).reshape(n, g * cout_g * s, l_g)
    # W'[(g, co, r), ci, k'] (ConvTranspose1d layout: [C_in', C_out'/groups, K'])
    wp = torch.zeros(g, cout_g, s, cin_g, big_p + 1, dtype=w.dtype)
    for k in range(k_size):
        wp[:, :, r[k], :, big_p - (e[k] - j0)] += w.view(g, cin_g, cout_g, k_size)[:, :, :, k].transpose(1, 2)
    wp = wp.reshape(g * cout_g * s, cin_g, big_p + 1)
    return F.conv_transpose1d(planes, wp, stride=1, padding=big_p, groups=g)


def grad_input_via_adjoint(gy, w, padding, dilation, groups, l_in):
    """Stride 1 (what src/cuda/bwd_input_planes.cu does there, with no planes): the forward of the adjoint
    problem on grad_y itself - C_out and C_in swapped, taps flipped, same dilation, padding (K-1)*d - p
    (needs p <= (K-1)*d), truncated to L_in outputs. W_adj[g*Cout_g + co, ci, k'] = w[g*Cin_g + ci, co, K-1-k']."""
    cin, cout_g, k_size = w.shape
    g = groups
    cin_g = cin // g
    w_adj = w.view(g, cin_g, cout_g, k_size).transpose(1, 2).flip(-1).reshape(g * cout_g, cin_g, k_size)
    y = F.conv_transpose1d(gy, w_adj, stride=1, padding=(k_size - 1) * dilation - padding, dilation=dilation,
                           groups=g)
    assert y.shape[-1] >= l_in
    return y[..., :l_in]


def main():
    rng = random.Random(0)
    bad = ran = adj = 0
    for trial in range(400):
        g = rng.choice([1, 1, 2, 3])
        cin, cout = g * rng.randint(1, 5), g * rng.randint(1, 5)
        k, s, d = rng.randint(1, 17), rng.choice([1, 1, 2, 3, 4, 5, 6, 7, 8, 9]), rng.randint(1, 4)
        l_in, n = rng.randint(1, 40), rng.randint(1, 3)
        p = rng.randint(0, d * (k - 1) + 3)
        op = rng.randint(0, max(s, d) - 1)
        l_out = (l_in - 1) * s - 2 * p + d * (k - 1) + op + 1
        if l_out < 1:
            continue
        ran += 1
        x = torch.randn(n, cin, l_in, dtype=torch.float64, requires_grad=True)
        w = torch.randn(cin, cout // g, k, dtype=torch.float64)
        y = F.conv_transpose1d(x, w, stride=s, padding=p, output_padding=op, groups=g, dilation=d)
        gy = torch.randn_like(y)
        (ref,) = torch.autograd.grad(y, x, gy)
        got = grad_input_via_phase_planes(gy, w, s, p, d, g, l_in)
        if got.shape != ref.shape or (got - ref).abs().max() > 1e-10 * (1 + ref.abs().max()):
            bad += 1
            print(f"MISMATCH trial {trial}: N={n} Cin={cin} Cout={cout} K={k} L={l_in} s={s} p={p} op={op} "
                  f"d={d} g={g}: shapes {tuple(got.shape)} vs {tuple(ref.shape)}")
        if s == 1 and p <= d * (k - 1):
            adj += 1
            got = grad_input_via_adjoint(gy, w, p, d, g, l_in)
            if got.shape != ref.shape or (got - ref).abs().max() > 1e-10 * (1 + ref.abs().max()):
                bad += 1
                print(f"ADJOINT MISMATCH trial {trial}: N={n} Cin={cin} Cout={cout} K={k} L={l_in} p={p} op={op} "
                      f"d={d} g={g}")
    print(f"{ran + adj - bad} passed, {bad} failed ({adj} of them stride-1 adjoint checks)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
