"""Forward phase merging, checked in float64 against F.conv_transpose1d.

A stride-s transposed convolution is ONE stride-1 GEMM whose rows are the (co, r) pairs (row m = co*s + r):
  acc[m, q] = sum_{ci, j} W'[m, ci, j] * x[ci, q - j],   j in [0, P], P = floor((K-1)*d / s)
  W'[(co, r), ci, j] = w[ci, co, k] where k*d = j*s + r (zero if no such k < K)
  y[co, q*s + r - p] = acc[(co, r), q]   for q in [floor(p/s), floor((p + L_out - 1)/s)], when 0 <= o < L_out.
This mirrors merged_tap() and the merged epilogue of src/cuda/fwd_tc_kernel.cuh index for index.
Run: python dev/python/fwd_phase_merge.py   (CPU; exits 1 on a mismatch)
"""
import random
import sys

import torch
import torch.nn.functional as F


def forward_merged(x, w, s, p, op, d, g):
    n, cin, l_in = x.shape
    _, cout_g, k_size = w.shape
    cin_g = cin // g
    l_out = (l_in - 1) * s - 2 * p + d * (k_size - 1) + op + 1
    taps = (k_size - 1) * d // s + 1
    rows = cout_g * s
    wm = torch.zeros(g, rows, cin_g, taps, dtype=x.dtype)
    for m in range(rows):
        for j in range(taps):
            kd = j * s + m % s
            if kd % d == 0 and kd // d < k_size:
                wm[:, m, :, j] = w.view(g, cin_g, cout_g, k_size)[:, :, m // s, kd // d]
    q_min, q_max = p // s, (p + l_out - 1) // s
    y = torch.full((n, g * cout_g, l_out), float("nan"), dtype=x.dtype)
    xg = x.view(n, g, cin_g, l_in)
    for q in range(q_min, q_max + 1):
        acc = torch.zeros(n, g, rows, dtype=x.dtype)
        for j in range(taps):
            i = q - j
            if 0 <= i < l_in:
                acc += torch.einsum("grc,ngc->ngr", wm[:, :, :, j], xg[:, :, :, i])
        for m in range(rows):
            o = q * s + m % s - p
            if 0 <= o < l_out:
                y.view(n, g, cout_g, l_out)[:, :, m // s, o] = acc[:, :, m]
    return y


def main():
    rng = random.Random(1)
    bad = ran = 0
    for trial in range(250):
        g = rng.choice([1, 1, 2, 3])
        cin, cout = g * rng.randint(1, 4), g * rng.randint(1, 4)
        k, s, d = rng.randint(1, 17), rng.randint(2, 9), rng.randint(1, 4)
        l_in, n = rng.randint(1, 20), rng.randint(1, 2)
        p = rng.randint(0, d * (k - 1) + 3)
        op = rng.randint(0, max(s, d) - 1)
        if (l_in - 1) * s - 2 * p + d * (k - 1) + op + 1 < 1:
            continue
        ran += 1
        x = torch.randn(n, cin, l_in, dtype=torch.float64)
        w = torch.randn(cin, cout // g, k, dtype=torch.float64)
        ref = F.conv_transpose1d(x, w, stride=s, padding=p, output_padding=op, groups=g, dilation=d)
        got = forward_merged(x, w, s, p, op, d, g)
        if got.shape != ref.shape or not torch.allclose(got, ref, atol=1e-10, rtol=1e-10):
            bad += 1
            print(f"MISMATCH trial {trial}: N={n} Cin={cin} Cout={cout} K={k} L={l_in} s={s} p={p} op={op} d={d} g={g}")
    print(f"{ran - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
