"""What a write-heavy kernel reaches on this card, at KernelBench 74's sizes (x 32 x 32 x 131072 fp32 read once,
y 32 x 64 x L_out written: 1/3 read, 2/3 write), beside a device-to-device copy, a pure write and a pure read.
Triton kernels (no convt1d): each program reads 4096 values of one x row and writes them to two y rows, with y's
row pitch 131072 (rows 16 KB aligned) or 131084 (KernelBench 74's L_out: rows 16 mod 32 bytes apart).

    python dev/python/bw_probe.py
"""
import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def one_to_two(x, y, L, Lo, BLOCK: tl.constexpr):
    r = tl.program_id(1)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + r.to(tl.int64) * L + offs)
    base = y + (2 * r).to(tl.int64) * Lo
    tl.store(base + offs, v)
    tl.store(base + Lo + offs, v + 1.0)


def main():
    N, C, L = 32, 32, 131072
    x = torch.randn(N * C, L, device="cuda")
    gb = lambda nbytes, ms: nbytes / ms / 1e6  # noqa: E731
    src = torch.randn(N * 64 * L, device="cuda")
    dst = torch.empty_like(src)
    t = do_bench(lambda: dst.copy_(src), warmup=20, rep=300, return_mode="median")
    print(f"copy      {t:7.3f} ms {gb(2 * src.numel() * 4, t):7.0f} GB/s  (read + write {src.numel() * 4 / 1e9:.2f} GB each)")
    t = do_bench(lambda: dst.fill_(1.5), warmup=20, rep=300, return_mode="median")
    print(f"write     {t:7.3f} ms {gb(dst.numel() * 4, t):7.0f} GB/s")
    t = do_bench(lambda: src.sum(), warmup=20, rep=300, return_mode="median")
    print(f"read      {t:7.3f} ms {gb(src.numel() * 4, t):7.0f} GB/s")
    for Lo in (131072, 131084):
        y = torch.empty(N * 64, Lo, device="cuda")
        f = lambda: one_to_two[(L // 4096, N * C)](x, y, L, Lo, BLOCK=4096)  # noqa: E731
        f()
        assert torch.equal(y[0::2, :L], x) and torch.equal(y[1::2, :L], x + 1)
        t = do_bench(f, warmup=20, rep=300, return_mode="median")
        print(f"1->2 Lo={Lo} {t:7.3f} ms {gb(3 * x.numel() * 4, t):7.0f} GB/s  (read {x.numel() * 4 / 1e9:.2f} GB, write twice that)")


if __name__ == "__main__":
    main()
