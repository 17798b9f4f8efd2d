"""What KernelBench 79's traffic reaches on this card without convt1d (session 21): x 16 x 32 x 131072 fp32 read,
y 16 x 64 x 262145 written (odd rows: 4-byte aligned), every other column of y a value, the rest a constant, as the
one-phase forwards write it. Each Triton program writes all 64 rows of one sample over 2*BLOCK columns (a tile of the
register-A kernel: BLOCK = 256 positions = 2 KB per row), reading its x rows as it goes; BLOCK varies the bytes each
row gets per tile. Beside a device-to-device copy of the same bytes.

    python dev/python/bw_probe79.py
"""
import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def kb79_like(x, y, L, Lo, BLOCK: tl.constexpr, COUT: tl.constexpr, CIN: tl.constexpr):
    qt = tl.program_id(0)
    n = tl.program_id(1)
    o = qt * 2 * BLOCK - 1 + tl.arange(0, 2 * BLOCK)  # output columns of the tile (p = 1: o = 2q - 1)
    q = (o - 1) // 2  # y[n, co, 2q + 1] = x[n, co % CIN, q]
    odd = (o % 2) != 0
    for co in range(COUT):
        src = x + (n * CIN + co % CIN).to(tl.int64) * L
        v = tl.load(src + q, mask=odd & (o >= 0) & (q < L), other=0.5)
        tl.store(y + (n * COUT + co).to(tl.int64) * Lo + o, v, mask=(o >= 0) & (o < Lo))


def main():
    N, CIN, COUT, L = 16, 32, 64, 131072
    Lo = 2 * L + 1
    x = torch.randn(N * CIN, L, device="cuda")
    y = torch.empty(N * COUT, Lo, device="cuda")
    nbytes = (x.numel() + y.numel()) * 4
    gb = lambda nb, ms: nb / ms / 1e6  # noqa: E731
    src = torch.randn(nbytes // 8, device="cuda")
    dst = torch.empty_like(src)
    t = do_bench(lambda: dst.copy_(src), warmup=20, rep=300, return_mode="median")
    print(f"copy of {nbytes / 1e9:.2f} GB: {t:7.3f} ms {gb(nbytes, t):7.0f} GB/s")
    t = do_bench(lambda: y.fill_(1.5), warmup=20, rep=300, return_mode="median")
    print(f"fill y: {t:7.3f} ms {gb(y.numel() * 4, t):7.0f} GB/s")
    for block in (128, 256, 512, 1024, 2048):
        f = lambda: kb79_like[(triton.cdiv(Lo + 1, 2 * block), N)](x, y, L, Lo, BLOCK=block, COUT=COUT, CIN=CIN, num_warps=8)  # noqa: E731
        f()
        assert torch.equal(y[0, 1::2], x[0]) and torch.equal(y[COUT + 5, 1::2], x[CIN + 5])
        t = do_bench(f, warmup=20, rep=300, return_mode="median")
        print(f"KernelBench 79 traffic, {2 * block * 4} B per row per tile: {t:7.3f} ms {gb(nbytes, t):7.0f} GB/s")


if __name__ == "__main__":
    main()
