"""fp16/bf16/TF32/split-TF32 forward shapes large enough for the Hopper wgmma/TMA kernel (src/cuda/fwd_wgmma.cu).

On an sm_90 GPU these take that kernel (groups 1, above the tiny-problem size), forced with
CONVT1D_WGMMA=1 (and each tile width with CONVT1D_WGMMA_BR) and by the shipped heuristic; elsewhere the
mma.sync kernel, and the checks hold the same. Each shape hits one of its cases: channel counts that are
not multiples of the channel chunk or of the 64/128/256-row tile, merged strides 2..16 (3, 5, 7 leave
rows of a tile to spare rows, test_wgmma_rs_spare_rows) with dilation and padding, output_padding, input and output lengths that are not
multiples of 8, an input that is not 16-byte aligned, many taps at stride 1, bias, and the stride-1
grad_input that runs the forward on the adjoint weights. The register-A variant (fwd_wgmma_rs_kernel, x
read in place: CONVT1D_WGMMA_RS=1 and its tiles with CONVT1D_WGMMA_RS_TILE) runs the same matrix; shapes
whose rows are not a 16-byte multiple fall back, and test_wgmma_rs_taken checks with the profiler that it
really runs where it is meant to. The output memory is poisoned with NaN first so that an unwritten
element fails.

grad_weight of the strided shapes runs the wgmma kernel of src/cuda/bwd_weight_wgmma.cu (forced with
CONVT1D_WGMMA_BW=1, and by its heuristic), in one batch chunk and in several (CONVT1D_WGMMA_BW_SCRATCH),
bitwise identical across runs."""
import math

import pytest
import torch

import convt1d
from helpers import captured, cuda_ready, kernels_run, kwargs, make_inputs, out_len, ref, rel_err

pytestmark = [pytest.mark.cuda,
              pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU and a CUDA build of libconvt1d")]


def shape(name, N, Cin, Cout, K, L, stride=1, padding=0, output_padding=0, dilation=1, bias=True):
    return dict(name=name, N=N, Cin=Cin, Cout=Cout, K=K, L=L, stride=stride, padding=padding,
                output_padding=output_padding, groups=1, dilation=dilation, bias=bias)


SHAPES = [
    shape("kb64_like", 2, 128, 128, 3, 2048, bias=False),
    shape("kb74_like_padded", 3, 32, 64, 5, 4096, padding=2, dilation=3, bias=False),
    shape("kb79_like", 2, 32, 64, 3, 4096, stride=2, padding=1, dilation=2, bias=False),
    shape("upsample_x8", 2, 512, 256, 16, 256, stride=8, padding=4),
    shape("hifigan_up3_like", 2, 128, 64, 4, 4096, stride=2, padding=1),
    shape("s4_outpad_odd_channels", 2, 96, 80, 7, 1024, stride=4, padding=3, output_padding=1),
    shape("pointwise_wide", 2, 72, 200, 1, 2048),
    shape("s16_k32", 2, 64, 48, 32, 512, stride=16, padding=8),
    shape("s2_big_padding_dilated", 2, 64, 40, 4, 2048, stride=2, padding=5, dilation=3, output_padding=1),
    shape("s1_padding_past_span", 3, 48, 24, 3, 4096, padding=7, bias=False),
    shape("few_channels_long", 4, 16, 16, 9, 16384, stride=1, padding=4, dilation=2),
    shape("codec_s5_like", 2, 512, 256, 10, 515, stride=5, padding=3, output_padding=1),
    shape("s3_dilated_odd_len", 2, 96, 72, 5, 1001, stride=3, padding=2, dilation=2),
    shape("s7_cout_odd", 3, 200, 37, 14, 333, stride=7, padding=3, output_padding=2),
    shape("s1_k16_many_taps", 2, 256, 192, 16, 777, padding=5),
    shape("codec_s8_wide", 1, 1536, 768, 16, 136, stride=8, padding=4),
    shape("s2_pad2_pairs", 2, 64, 48, 6, 1000, stride=2, padding=2),
]


def poison_then_run(x, w, b, c):
    # The caching allocator hands the freed NaN block to the output of the same size.
    lout = (c["L"] - 1) * c["stride"] - 2 * c["padding"] + c["dilation"] * (c["K"] - 1) + c["output_padding"] + 1
    junk = torch.full((c["N"], c["Cout"], lout), float("nan"), dtype=x.dtype, device=x.device)
    del junk
    return convt1d.conv_transpose1d(x, w, b, **kwargs(c))


def profiled_forward(x, w, b, c):
    """poison_then_run under the profiler: (y, the names of the kernels that computed it)."""
    out = {}
    names = kernels_run(lambda: out.setdefault("y", poison_then_run(x, w, b, c)))
    return out["y"], names


def one_element_in(t):
    """A copy of t that starts one element into its buffer (so not 16-byte aligned)."""
    store = torch.empty(t.numel() + 1, dtype=t.dtype, device=t.device)
    v = store[1:].view(t.shape)
    v.copy_(t)
    return v


# (dtype, tolerance, cudnn.allow_tf32): fp32 runs as TF32 and, with TF32 off, as split TF32 (fp32-accurate).
DTYPES = [pytest.param(torch.float16, 2e-3, True, id="f16"), pytest.param(torch.bfloat16, 1e-2, True, id="bf16"),
          pytest.param(torch.float32, 5e-3, True, id="tf32"), pytest.param(torch.float32, 1e-5, False, id="strict")]


@pytest.fixture(autouse=True)
def restore_tf32_flag():
    old = torch.backends.cudnn.allow_tf32
    yield
    torch.backends.cudnn.allow_tf32 = old


def set_pick(pick, monkeypatch):
    """SS kernel forced (forced, brN: tile rows), register-A kernel forced (rs, rsBRxMQ: its tile), or as shipped."""
    if pick.startswith("rs"):
        monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
        if pick == "rscp":  # input staged by the producer's cp.async instead of TMA
            monkeypatch.setenv("CONVT1D_WGMMA_RS_CPASYNC", "1")
        elif pick == "rsbulk":  # input staged by one bulk copy per row, even where TMA could
            monkeypatch.setenv("CONVT1D_WGMMA_RS_BULK", "1")
        elif pick == "rsnobulk":  # never by bulk copies (rows TMA cannot address: cp.async or fall back)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_BULK", "0")
        elif pick == "rsdirect":  # epilogue stores straight from the accumulators (not staged + bulk copies)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_EPI", "direct")
        elif pick == "rsstaged":  # epilogue staged in shared memory, rows sent by bulk copies (any stride)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_EPI", "staged")
        elif pick == "rspp":  # ping-pong: the consumer warpgroups take alternate tiles (64x2, 128x2 tiles)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_PP", "1")
        elif pick == "rsppo":  # ordered ping-pong with a ring of two stages (fewer than a tile's chunks + 1)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_PP", "1")
            monkeypatch.setenv("CONVT1D_WGMMA_RS_PPO", "2")
            monkeypatch.setenv("CONVT1D_WGMMA_RS_WRES", "0")
        elif pick == "rsnowres":  # every stage brings its chunk's weights (not resident for the block)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_WRES", "0")
        elif pick == "rswres":  # weights resident wherever they fit
            monkeypatch.setenv("CONVT1D_WGMMA_RS_WRES", "1")
        elif pick.startswith("rspairs"):  # 16-bit position pairs on every stride-1 layer (+ staged epilogue / 256 rows)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_PAIRS", "1")
            if pick == "rspairsstaged":
                monkeypatch.setenv("CONVT1D_WGMMA_RS_EPI", "staged")
            elif pick == "rspairs256":
                monkeypatch.setenv("CONVT1D_WGMMA_RS_TILE", "256x1")
        elif pick == "rsnopairs":  # never position pairs
            monkeypatch.setenv("CONVT1D_WGMMA_RS_PAIRS", "0")
        elif pick == "rsnoypair":  # phase-merged outputs one element per store (not as pairs of adjacent phases)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_YPAIR", "0")
        elif pick == "rsnoldm":  # 16-bit A fragments by 16-bit loads on every tap (no ldmatrix where the shift allows)
            monkeypatch.setenv("CONVT1D_WGMMA_RS_LDM", "0")
        elif pick != "rs":
            monkeypatch.setenv("CONVT1D_WGMMA_RS_TILE", pick[2:])
    elif pick != "heuristic":
        monkeypatch.setenv("CONVT1D_WGMMA", "1")
        if pick.startswith("br"):
            monkeypatch.setenv("CONVT1D_WGMMA_BR", pick[2:])


@pytest.mark.parametrize("pick", ["forced", "br64", "br128x2", "br256", "rs", "rs64x1", "rs64x2", "rs128x1", "rscp",
                                  "rsbulk", "rsdirect", "rsstaged", "rspp", "rsppo", "rsnowres", "rswres", "rspairs", "rspairsstaged",
                                  "rspairs256", "rsnopairs", "rsnoypair", "rsnoldm", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", SHAPES, ids=[c["name"] for c in SHAPES])
def test_wgmma_forward(c, dtype, tol, tf32, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    set_pick(pick, monkeypatch)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)  # fresh inputs every run
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y = poison_then_run(x, w, b, c)
    assert y.dtype == dtype and torch.isfinite(y).all()
    assert rel_err(y, ref(x, w, b, c)) <= tol


@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
def test_wgmma_unaligned_input(dtype, tol, tf32, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    # x one element into its storage: not 16-byte aligned (the kernel reads it through its transpose).
    monkeypatch.setenv("CONVT1D_WGMMA", "1")
    c = SHAPES[3]
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    xs = one_element_in(x)
    assert xs.data_ptr() % 16 != 0
    y = poison_then_run(xs, w, b, c)
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= tol


@pytest.mark.parametrize("pick", ["forced", "rs", "rscp", "rsbulk", "rsdirect", "rsstaged", "rspp", "rsppo"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", [SHAPES[0], SHAPES[1], SHAPES[6]], ids=["kb64_like", "kb74_like", "pointwise"])
def test_wgmma_grad_input_adjoint(c, dtype, tol, tf32, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    # Stride-1 grad_input is the forward of the adjoint problem (weights read transposed and flipped). The fused
    # one-phase grad_input takes small stride-1 layers such as kb74_like first since Session 15: off here.
    set_pick(pick, monkeypatch)
    monkeypatch.setenv("CONVT1D_BWD_INPUT_FUSED", "0")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    xr = x.clone().requires_grad_()
    y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
    gy = torch.randn(y.shape, generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
    (gx,) = torch.autograd.grad(y, xr, gy)
    x64 = x.double().requires_grad_()
    y64 = ref(x64, w, b, c)
    (gx64,) = torch.autograd.grad(y64, x64, gy.double())
    assert torch.isfinite(gx).all() and rel_err(gx, gx64) <= tol


@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", [SHAPES[0], SHAPES[1], SHAPES[2], SHAPES[4]],
                         ids=["kb64_like", "kb74_like", "kb79_like", "hifigan_up3_like"])
@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
def test_wgmma_rs_taken(c, dtype, tol, tf32, monkeypatch):
    # The register-A kernel must really run on the shapes it is built for (a silent fallback would pass
    # the accuracy checks above): forced, and as shipped where rs_pays() takes it (not TF32 with phases
    # that no tap reaches, as in kb79), and give the right answer.
    torch.backends.cudnn.allow_tf32 = tf32
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    shipped = not (c["name"] == "kb79_like" and dtype == torch.float32 and tf32)
    for forced in ((False, True) if shipped else (True,)):
        if forced:
            monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
        y, names = profiled_forward(x, w, b, c)
        assert any("fwd_wgmma_rs_kernel" in n for n in names), names
        assert rel_err(y, ref(x, w, b, c)) <= tol


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
def test_wgmma_rs_short_bulk_rows(dtype, tol, tf32, monkeypatch):
    # Rows TMA cannot address (34 values: 68 or 136 bytes), shorter than 128 positions a phase, with a tile per SM (40
    # samples x 4 row tiles): as shipped not the register-A kernel, whose tiles hold one sample's positions each (run
    # 446: dac_44k_up1_train fp16 0.572 ms there, 0.157 on the SS kernel); CONVT1D_WGMMA_RS_BULK=1 still takes it, by
    # bulk copies. Both right.
    torch.backends.cudnn.allow_tf32 = tf32
    c = shape("short_rows_batched", 40, 64, 128, 16, 34, stride=8, padding=4)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    assert not any("fwd_wgmma_rs_kernel" in n for n in names), names
    assert rel_err(y, ref(x, w, b, c)) <= tol
    monkeypatch.setenv("CONVT1D_WGMMA_RS_BULK", "1")
    y, names = profiled_forward(x, w, b, c)
    assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    assert rel_err(y, ref(x, w, b, c)) <= tol


def rs_kernel_args(name):
    """The template arguments of a fwd_wgmma_rs_kernel<TY, BR, MQ, BI, PAIRS, VIEW, RX[, LEAN]> name, demangled or not,
    as strings ("0", "128", "2", "false", "true", "false", "false"); None for another kernel. Session 24 appended VIEW,
    after which a test for the name's tail ("false, true>") no longer found PAIRS (run 276); Session 27 appended RX,
    Session 38 LEAN (a default argument: a name may leave it out when false)."""
    import re
    m = re.search(r"fwd_wgmma_rs_kernel<([^>]*)>", name)
    if m:
        return [a.strip() for a in m.group(1).split(",")]
    m = re.search(r"fwd_wgmma_rs_kernelI((?:L[ib]\d+E)+)", name)
    if m:
        return [{"Lb0E": "false", "Lb1E": "true"}.get(a, a[2:-1]) for a in re.findall(r"L[ib]\d+E", m.group(1))]
    return None


def test_rs_kernel_args():
    demangled = "void (anonymous namespace)::fwd_wgmma_rs_kernel<0, 128, 2, false, true, false, false>(CUtensorMap_st, ...)"
    mangled = "_ZN45_GLOBAL__N__e825c84a_12_fwd_wgmma_cu_52b51e9119fwd_wgmma_rs_kernelILi1ELi64ELi2ELb0ELb0ELb1ELb0EEEv14CUt"
    assert rs_kernel_args(demangled) == ["0", "128", "2", "false", "true", "false", "false"]
    assert rs_kernel_args(mangled) == ["1", "64", "2", "false", "false", "true", "false"]
    assert rs_kernel_args("void other_kernel<1>()") is None
    assert rs_pairs_ran([demangled]) and not rs_pairs_ran([mangled])
    rx = "void (anonymous namespace)::fwd_wgmma_rs_kernel<2, 64, 2, false, false, false, true>(CUtensorMap_st, ...)"
    rx_mangled = "_ZN45_GLOBAL__N__e825c84a_12_fwd_wgmma_cu_52b51e9119fwd_wgmma_rs_kernelILi2ELi64ELi2ELb0ELb0ELb0ELb1EEEv14"
    assert rs_kernel_args(rx) == rs_kernel_args(rx_mangled) == ["2", "64", "2", "false", "false", "false", "true"]
    assert rs_rx_ran([rx]) and rs_rx_ran([rx_mangled]) and not rs_rx_ran([demangled, mangled])


def rs_pairs_ran(names):
    """Whether the register-A forward ran with 16-bit position pairs (its PAIRS template argument true)."""
    return any((rs_kernel_args(n) or [""] * 6)[4] == "true" for n in names)


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["shipped", "forced", "off"])
@pytest.mark.parametrize("dtype,tol", [(torch.float16, 2e-3), (torch.bfloat16, 1e-2)])
@pytest.mark.parametrize("c", [SHAPES[0], dict(SHAPES[0], N=3, K=4, L=2040, padding=1, bias=True), SHAPES[1], SHAPES[9]],
                         ids=["kb64_like", "kb64_k4_odd_lout", "kb74_like", "s1_padding_past_span"])
def test_wgmma_rs_pairs(c, dtype, tol, pick, monkeypatch):
    # 16-bit position pairs in the register-A forward: as shipped and forced (CONVT1D_WGMMA_RS_PAIRS=1) on every
    # stride-1 layer (dilation 3 included since session 17), never with =0; odd output lengths take
    # the per-element stores, odd tap shifts the 16-bit fragment loads. y poisoned, against float64.
    torch.backends.cudnn.allow_tf32 = True
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    if pick != "shipped":
        monkeypatch.setenv("CONVT1D_WGMMA_RS_PAIRS", "1" if pick == "forced" else "0")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    expected = pick != "off"
    assert rs_pairs_ran(names) == expected, names
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= tol


# Spare rows (Session 26): strides that leave BR - R*s rows of a register-A tile unused (R = BR // s whole channels)
# put the channels past r_tiles*R into those rows, one phase row each, so the rows take ceil(C_out*s / BR) tiles.
# Row tiles at 64 / 128 / 256 rows, with spare rows (was) and the channels they take: s5 20 / 10 / 5 (22 / 11 / 6),
# 16 / 6 / 1 channels; s3 dilated 12 / 6 / 3 (13 / 7 / 4), 4 / 4 / 1; s6 (even: the direct stores' pairs of adjacent
# phases) 12 / 6 / 3 (13 / 7 / 4), 8 / 2 / 2; s7 14 / 7 (15 / 8), one channel. CONVT1D_WGMMA_RS_SPARE=0 (whole
# channels only) checked alike.
SPARE = [
    shape("spare_s5", 2, 96, 256, 10, 520, stride=5, padding=3, output_padding=1),
    shape("spare_s3_dilated", 2, 64, 256, 6, 704, stride=3, padding=1, dilation=2),
    shape("spare_s6_pairs", 2, 64, 128, 12, 600, stride=6, padding=2),
    shape("spare_s7", 3, 40, 127, 14, 336, stride=7, padding=3, output_padding=2, bias=False),
]  # input rows a 16-byte multiple (L a multiple of 8): the register-A kernel takes them by TMA boxes


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["rs", "rs64x1", "rs64x2", "rs128x1", "rs128x2", "rs256x1", "rsstaged", "rsdirect",
                                  "rsnoypair", "nospare", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", SPARE, ids=[c["name"] for c in SPARE])
def test_wgmma_rs_spare_rows(c, dtype, tol, tf32, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    if pick == "nospare":
        monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
        monkeypatch.setenv("CONVT1D_WGMMA_RS_SPARE", "0")
    else:
        set_pick(pick, monkeypatch)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    if pick in ("rs", "nospare"):
        assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= tol


# The register-A kernel's tile order (tile_rt, CONVT1D_WGMMA_RS_RGROUP=g): groups of g row tiles, each over every
# position tile, instead of row tiles fastest (=0). The same tiles computed the same way, in another order: y must be
# bitwise the row-tiles-fastest order's and right, the last group smaller than g where g does not divide the row tiles
# (the layers have 2-48 row tiles), with ping-pong (whose warpgroups take alternate tiles) and in the grad_input (the
# same kernel); "rule" is the default (groups only where the weights exceed half of L2: codec_s8_wide, 38-75 MB).
# Weights not resident: resident weights keep one row tile per block, so no grouping there.
@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("rgrp", ["2", "3", "rule"])
@pytest.mark.parametrize("pick", ["rs", "rspp", "rs128x1"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES[:3])
@pytest.mark.parametrize("c", [SHAPES[3], SHAPES[5], SHAPES[6], SPARE[0], SHAPES[15]],
                         ids=["upsample_x8", "s4_outpad_odd_channels", "pointwise_wide", "spare_s5", "codec_s8_wide"])
def test_wgmma_rs_tile_order(c, dtype, tol, tf32, pick, rgrp, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    set_pick(pick, monkeypatch)
    monkeypatch.setenv("CONVT1D_WGMMA_RS_WRES", "0")
    monkeypatch.setenv("CONVT1D_BWD_INPUT_FUSED", "0")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    gy = None
    outs = []
    for order in ("0", rgrp):
        if order == "rule":
            monkeypatch.delenv("CONVT1D_WGMMA_RS_RGROUP")
        else:
            monkeypatch.setenv("CONVT1D_WGMMA_RS_RGROUP", order)
        xr = x.clone().requires_grad_()
        y, names = profiled_forward(xr, w, b, c)
        assert any("fwd_wgmma_rs_kernel" in n for n in names), names
        if gy is None:
            gy = torch.randn(y.shape, generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
        (gx,) = torch.autograd.grad(y, xr, gy)
        outs.append((y.detach(), gx))
    (y0, gx0), (y1, gx1) = outs
    assert torch.isfinite(y1).all() and rel_err(y1, ref(x, w, b, c)) <= tol
    assert torch.equal(y1, y0) and torch.equal(gx1, gx0)


# The packed weights (pack_weights): the zeroing pass before the scatter is skipped where the scatter covers the packed
# tensor (C_in a whole number of channel chunks and C_out*K = T*M_pad rows, session 26). Layers: covered (s8: 2 taps x 8
# phases x 64 channels in 4 whole row tiles), padding rows and channels (s3, 38 channels in a 128-row tile of 126, C_in
# 96; its w rows of 342 columns are not 16-byte multiples), taps without weights (s2 dilated 2: phase 1 has none), C_in
# 98 (a last 16-byte piece of each packed row part empty), x rows of 2050 values at stride 1 with padding (K-1)*d, whose
# outputs read only inside their row (the register-A kernel's TMA reads them in groups of 2 (fp32) or 4 (16-bit) rows,
# CONVT1D_WGMMA_RS_GROUPS=1: packed channels permuted, PackMap::col, scalar stores); w aligned or one element into its buffer; on the register-A kernel
# and the SS kernel. The vectorized pack (wgmma_pack_kernel, session 30) must give the scalar transpose's bits
# (CONVT1D_WGMMA_PACK=0), and the SS kernel's one pre-pass launch (pack + input transpose, wgmma_prepass_kernel) the
# two launches' (CONVT1D_WGMMA_PREPASS=0): y equal. And the stride-1 grad_input's adjoint weights (test_wgmma_rs_pack_adjoint: covered
# at 128 channels, padded at 72).
PACK = [
    shape("pack_s8_covered", 2, 128, 64, 16, 256, stride=8, padding=4),
    shape("pack_s3_padded", 2, 96, 38, 9, 2048, stride=3, padding=1),
    shape("pack_s2_dilated_empty_taps", 2, 64, 48, 4, 2048, stride=2, padding=1, dilation=2),
    shape("pack_cin98", 2, 98, 64, 8, 1024, stride=4, padding=2),
    shape("pack_rows_grouped", 2, 64, 48, 3, 2050, padding=2),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["rs", "forced"])
@pytest.mark.parametrize("w_view", [False, True], ids=["w_aligned", "w_one_element_in"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", PACK, ids=[c["name"] for c in PACK])
def test_wgmma_rs_pack(c, dtype, tol, tf32, w_view, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    set_pick(pick, monkeypatch)
    if pick == "rs" and c["name"] == "pack_rows_grouped":
        monkeypatch.setenv("CONVT1D_WGMMA_RS_GROUPS", "1")  # grouped rows or no register-A kernel
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    if w_view:
        w = one_element_in(w)
    # Each variant's switches, and the kernel that packs: the SS kernel's call packs inside its one pre-pass launch with
    # the input transpose (wgmma_prepass_kernel) unless CONVT1D_WGMMA_PREPASS=0.
    variants = {"vector": ({}, "wgmma_prepass_kernel" if pick == "forced" else "wgmma_pack_kernel"),
                "scalar": ({"CONVT1D_WGMMA_PACK": "0"}, "wgmma_transpose_kernel"),
                "separate": ({"CONVT1D_WGMMA_PREPASS": "0"}, "wgmma_pack_kernel")}
    ys = {}
    for name, (env, packer) in variants.items():
        for k in ("CONVT1D_WGMMA_PACK", "CONVT1D_WGMMA_PREPASS"):
            monkeypatch.delenv(k, raising=False)
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        ys[name], names = profiled_forward(x, w, b, c)
        assert any(("fwd_wgmma_rs_kernel" if pick == "rs" else "fwd_wgmma_kernel") in n for n in names), names
        packs = [n for n in names if "wgmma_pack_kernel" in n or "wgmma_prepass_kernel" in n
                 or ("wgmma_transpose_kernel" in n and "true>" in n)]
        assert len(packs) == 1 and packer in packs[0], (name, names)
        if packer == "wgmma_prepass_kernel":  # the input transpose went with it
            assert not any("wgmma_transpose_kernel" in n for n in names), names
    assert torch.equal(ys["vector"], ys["scalar"]) and torch.equal(ys["vector"], ys["separate"])
    assert torch.isfinite(ys["vector"]).all() and rel_err(ys["vector"], ref(x, w, b, c)) <= tol


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("cin", [128, 72])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
def test_wgmma_rs_pack_adjoint(cin, dtype, tol, tf32, monkeypatch):
    # stride-1 grad_input = the register-A forward on the adjoint weights (packed with adj), whose rows are the layer's
    # C_in: 128 fill one 128-row tile (covered), 72 leave padding rows
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_BWD_INPUT_FUSED", "0")
    c = shape("adj", 2, cin, 64, 4, 2048, padding=1, bias=False)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    xr = x.clone().requires_grad_()
    y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
    gy = torch.randn(y.shape, generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
    (gx,) = torch.autograd.grad(y, xr, gy)
    x64 = x.double().requires_grad_()
    (gx64,) = torch.autograd.grad(ref(x64, w, b, c), x64, gy.double())
    assert torch.isfinite(gx).all() and rel_err(gx, gx64) <= tol


# TF32 input boxes rounded once per stage in shared memory (Session 27: fwd_wgmma_rs_kernel RX, CONVT1D_WGMMA_RS_RX).
# The rounding is the one the fragments did per use (+ half a TF32 ulp), and the MMAs run in the same order, so y must
# be bitwise equal with it on and off; and within TF32's tolerance of float64. It exists for 64-row tiles (the default
# takes it on stride-1 layers: KernelBench 74); forced here wherever a 64-row tile runs: stride 1 (C_in 32; 48 and 16,
# whose chunks of two k-steps showed run 298's race; 40, a last chunk half empty), the phase-merged rows of stride 8
# and 2 and 128-row layers at the 64-row picks, and a one-phase layer (outputs s apart); each at the tile picks and
# options that change the stages the rounding warps walk (resident weights: input-only stages; ping-pong: one box per
# stage; staged or direct epilogue). x one element into its buffer: TMA cannot stage it, so the register-A kernel,
# where it runs, keeps per-use rounding.
RX_SHAPES = [
    shape("rx_s1_d3_64rows", 2, 32, 64, 5, 4096, padding=2, dilation=3, bias=False),
    shape("rx_s1_128rows", 2, 128, 128, 3, 2048, bias=False),
    shape("rx_s8_256rows", 2, 96, 256, 16, 256, stride=8, padding=4),
    shape("rx_s2_128rows", 2, 128, 64, 4, 4096, stride=2, padding=1),
    shape("rx_cin40_half_chunk", 2, 40, 64, 3, 4096, padding=1),
    shape("rx_one_phase", 2, 32, 64, 3, 4096, stride=2, padding=1, dilation=2, bias=False),
    shape("rx_cin48_two_ksteps", 3, 48, 24, 3, 4096, padding=7, bias=False),
    shape("rx_cin16_two_ksteps", 4, 16, 16, 9, 16384, padding=4, dilation=2),
]


def rs_rx_ran(names):
    """Whether the register-A forward ran with its input boxes rounded in shared memory (RX template argument)."""
    return any((rs_kernel_args(n) or [""] * 7)[6:7] == ["true"] for n in names)


def rs_rows(names):
    """The tile rows (BR) of the register-A forward that ran, or None."""
    return next((int(a[1]) for a in map(rs_kernel_args, names) if a), None)


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["rs", "rs64x1", "rs64x2", "rs128x1", "rs128x2", "rs256x1", "rswres", "rsnowres",
                                  "rspp", "rsstaged", "rsdirect", "x_one_element_in"])
@pytest.mark.parametrize("c", RX_SHAPES, ids=[c["name"] for c in RX_SHAPES])
def test_wgmma_rs_rounded_boxes(c, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = True
    set_pick("rs" if pick == "x_one_element_in" else pick, monkeypatch)
    if c["name"] == "rx_one_phase":
        monkeypatch.setenv("CONVT1D_WGMMA_RS_OP", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=torch.float32, device="cuda", gen=gen)
    if pick == "x_one_element_in":
        x = one_element_in(x)
    ys = {}
    for rx in ("0", "1"):
        monkeypatch.setenv("CONVT1D_WGMMA_RS_RX", rx)
        ys[rx], names = profiled_forward(x, w, b, c)
        if pick == "rs":
            assert any("fwd_wgmma_rs_kernel" in n for n in names), names
        if rs_rows(names) is not None:
            assert rs_rx_ran(names) == (rx == "1" and pick != "x_one_element_in" and rs_rows(names) == 64), names
    assert torch.equal(ys["0"], ys["1"])
    assert torch.isfinite(ys["1"]).all() and rel_err(ys["1"], ref(x, w, b, c)) <= 5e-3


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("c,rx", [(RX_SHAPES[0], True), (RX_SHAPES[4], True), (RX_SHAPES[6], True), (RX_SHAPES[1], False),
                                  (RX_SHAPES[2], False), (RX_SHAPES[3], False)],
                         ids=lambda v: str(v) if isinstance(v, bool) else v["name"])
@pytest.mark.parametrize("rich", ["0", "1"])
def test_wgmma_rs_rounded_boxes_default(c, rx, rich, monkeypatch):
    """Where the default takes the rounded boxes: the stride-1 64-row tiles, not 128 / 256 rows or phase-merged rows
    (the register-A kernel forced, its tile and options as the heuristic picks them); nowhere on an H200-class device
    (CONVT1D_DRAM_RICH=1: direct stores there, which RX slows), nor where rs_s1_direct takes the direct stores on the
    H100 (Session 42: 32 output channels or fewer, or more than one 32-channel chunk in)."""
    torch.backends.cudnn.allow_tf32 = True
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_DRAM_RICH", rich)
    rx = rx and rich == "0" and c["Cout"] > 32 and c["Cin"] <= 32
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=torch.float32, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    assert rs_rx_ran(names) == rx, names
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= 5e-3


# The H200's defaults (convt1d_dram_rich; Session 37, runs 378-380), forced on either card by CONVT1D_DRAM_RICH: TF32
# stride-1 rows stored directly without RX, 16-bit stride-2 rows without pairs stored directly, the fused one-phase TF32
# forward without whole lines; and the H100's (=0) as before. 256x1 tiles from 513 rows on both (Session 42). Each layer's y within its
# mode's tolerance of float64 with either, and the tile rows the register-A kernel ran.
RICH_SHAPES = [
    (shape("rich_kb74_like", 4, 32, 64, 5, 16384, padding=2, dilation=3, bias=False), {"0": 64, "1": 64}),
    (shape("rich_up2_like_1024rows", 2, 64, 128, 16, 1024, stride=8, padding=4), {"0": 256, "1": 256}),
    (shape("rich_up4_like_s2", 2, 64, 32, 4, 8192, stride=2, padding=1), {"0": 64, "1": 64}),
    (shape("rich_kb79_like_one_phase", 4, 32, 64, 3, 16384, stride=2, padding=1, dilation=2, bias=False), {}),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("rich", ["0", "1"])
@pytest.mark.parametrize("dtype,tf32,tol", [(torch.float32, True, 5e-3), (torch.float16, False, 2e-3),
                                            (torch.bfloat16, False, 1e-2)], ids=["tf32", "f16", "bf16"])
@pytest.mark.parametrize("ci", range(len(RICH_SHAPES)), ids=[c["name"] for c, _ in RICH_SHAPES])
def test_wgmma_dram_rich_defaults(ci, dtype, tf32, tol, rich, monkeypatch):
    c, rows = RICH_SHAPES[ci]
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_DRAM_RICH", rich)
    if rows:  # the register-A kernel forced (its tile and options as the heuristic picks them)
        monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    if rows:
        assert rs_rows(names) == rows[rich], names
        assert not rs_rx_ran(names) or (rich == "0" and dtype == torch.float32), names
    else:
        assert any("fwd_phase_fused_kernel" in n for n in names), names
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= tol



# rs_s1_direct (Session 42): the H200's stride-1 TF32 form (direct stores, no RX, the lean kernel on 64x2 tiles) on
# either card, except for one 32-channel chunk in and more than 32 rows (KernelBench 74's forward), which keeps the
# H100's RX and staged rows there; the stride-1 grad_input is such a forward on the adjoint weights (32 rows, 64 in
# for a 32 -> 64 layer). CONVT1D_WGMMA_RS_S1DIRECT=0: as
# convt1d_dram_rich alone (the H100's RX back on 32 rows), =1: every TF32 stride-1 layer. y within TF32's tolerance.
S1D_SHAPES = [
    shape("s1d_rows32_cin64", 2, 64, 32, 5, 12000, padding=2, dilation=3, bias=False),
    shape("s1d_rows24_bias", 3, 48, 24, 3, 4096, padding=1),
    shape("s1d_rows64", 2, 32, 64, 5, 12000, dilation=3, bias=False),
    shape("s1d_rows64_cin64", 2, 64, 64, 5, 12000, padding=3, dilation=3),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("s1d", ["", "0", "1"])
@pytest.mark.parametrize("c", S1D_SHAPES, ids=[c["name"] for c in S1D_SHAPES])
def test_wgmma_rs_s1_direct(c, s1d, monkeypatch):
    torch.backends.cudnn.allow_tf32 = True
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_DRAM_RICH", "0")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_S1DIRECT", s1d)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=torch.float32, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    args = next((a for a in map(rs_kernel_args, names) if a), None)
    assert args is not None and args[1:3] == ["64", "2"], names
    direct = s1d == "1" or (s1d == "" and (c["Cout"] <= 32 or c["Cin"] > 32))
    assert rs_rx_ran(names) == (not direct), names
    assert (args[7:8] == ["true"]) == direct, args  # the lean kernel: direct stores, no RX
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= 5e-3

# The lean register-A kernel (LEAN, Session 38): the stride-1 forward with TMA boxes and direct stores, compiled without
# the other stagings, the staged epilogue and the phase-merged stores. Taken wherever it applies on 64x2 tiles (16-bit
# with position pairs, TF32 without RX) and on TF32 128x2 tiles of the H200 class (Session 39; CONVT1D_DRAM_RICH forces
# either class). CONVT1D_WGMMA_RS_LEAN=0 the full kernel: y and the stride-1 grad_input (the forward on the adjoint
# weights; lean_kb74_like's grad_y rows, 16396 16-bit elements, come as TMA boxes over pairs of rows) equal bit for bit
# with either, within tolerance of float64, and the kernel named. A last partial tile, channels past C_out in a row
# tile, bias, a chunk of 40 channels, and 128-row layers; each as picked and on a forced 128x2 tile.
LEAN_SHAPES = [
    shape("lean_kb74_like", 4, 32, 64, 5, 16384, dilation=3, bias=False),
    shape("lean_edge_tiles", 2, 48, 64, 3, 16000, padding=1),
    shape("lean_cout40_bias", 2, 64, 40, 4, 3000, padding=2, dilation=2),
    shape("lean_cin40_d2", 2, 40, 64, 3, 6000, padding=2, dilation=2),
    shape("lean_kb64_like_rows128", 2, 128, 128, 3, 8192, bias=False),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("rich", ["0", "1"])
@pytest.mark.parametrize("tile", ["picked", "128x2"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES[:3])
@pytest.mark.parametrize("c", LEAN_SHAPES, ids=[c["name"] for c in LEAN_SHAPES])
def test_wgmma_rs_lean(c, dtype, tol, tf32, tile, rich, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_EPI", "direct")  # on either card (the H100 stages TF32 stride-1 rows, with RX)
    monkeypatch.setenv("CONVT1D_WGMMA_RS_RX", "0")
    monkeypatch.setenv("CONVT1D_DRAM_RICH", rich)
    if tile != "picked":
        monkeypatch.setenv("CONVT1D_WGMMA_RS_TILE", "128x2")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    op = torch.ops.convt1d.conv_transpose1d_backward.default
    conv = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    ys, gxs, lean = {}, {}, {}
    for v in ("1", "0"):
        monkeypatch.setenv("CONVT1D_WGMMA_RS_LEAN", v)
        ys[v], names = profiled_forward(x, w, b, c)
        args = next((a for a in map(rs_kernel_args, names) if a), None)
        assert args is not None, names
        lean[v] = args[7:8] == ["true"]
    gy = torch.randn(ys["1"].shape, generator=gen).to(device="cuda", dtype=dtype)
    for v in ("1", "0"):
        monkeypatch.setenv("CONVT1D_WGMMA_RS_LEAN", v)
        gxs[v] = op(gy, x, w, *conv, [True, False, False])[0]
    rows, mq = int(args[1]), int(args[2])  # the full kernel's tile (the same pick as the lean one's)
    if tile != "picked":
        assert (rows, mq) == (128, 2), args
    want = mq == 2 and (rows == 64 or (rows == 128 and dtype == torch.float32 and rich == "1"))
    assert not lean["0"] and lean["1"] == want, (lean, args)
    assert torch.equal(ys["1"], ys["0"]) and torch.equal(gxs["1"], gxs["0"])
    assert torch.isfinite(ys["1"]).all() and rel_err(ys["1"], ref(x, w, b, c)) <= tol


# Consecutive ldmatrix taps (16-bit): a tap whose shift is a multiple of 8 positions takes its A fragments with
# ldmatrix, issued before the previous tap's last MMA has retired. Two such taps in a row (tap step dj a multiple of 8:
# dilation at stride 1, dilation / stride in the one-phase view) are where ptxas gave the new loads that MMA's
# registers (Session 28, dev/python/sass_wgmma_hazard.py; run 305-306: the library before the fix failed the one-phase
# layer here once in each of four runs of this test). run_rs now takes the 16-bit loads on every tap of those layers.
# Chunks of two and four k-steps, every tile; y equal to the 16-bit loads' y (no ldmatrix) bit for bit, and within
# tolerance of float64. ldm_s2_ten_taps: ldmatrix at taps 0 and 8 of 10, not in a row (still taken).
LDM_SHAPES = [
    shape("ldm_d8_two_ksteps", 4, 32, 64, 4, 8192, padding=12, dilation=8, bias=False),
    shape("ldm_d16_four_ksteps", 3, 64, 128, 3, 8192, padding=16, dilation=16),
    shape("ldm_d8_cin48_rows256", 2, 48, 256, 5, 4096, padding=3, dilation=8),
    shape("ldm_one_phase_s2_d16", 3, 32, 64, 3, 8192, stride=2, padding=8, dilation=16),
    shape("ldm_s2_ten_taps", 2, 64, 64, 20, 4096, stride=2, padding=9),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["rs", "rs64x1", "rs64x2", "rs128x1", "rs128x2", "rs256x1", "rsstaged", "rsdirect"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES[:2])
@pytest.mark.parametrize("c", LDM_SHAPES, ids=[c["name"] for c in LDM_SHAPES])
def test_wgmma_rs_ldmatrix_taps(c, dtype, tol, tf32, pick, monkeypatch):
    set_pick(pick, monkeypatch)
    if c["name"].startswith("ldm_one_phase"):
        monkeypatch.setenv("CONVT1D_WGMMA_RS_OP", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    ys = {}
    for ldm in ("0", "1"):
        monkeypatch.setenv("CONVT1D_WGMMA_RS_LDM", ldm)
        ys[ldm], names = profiled_forward(x, w, b, c)
        if pick == "rs":  # a forced tile the layer cannot take falls back to another kernel
            assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    assert torch.equal(ys["0"], ys["1"])
    assert torch.isfinite(ys["1"]).all() and rel_err(ys["1"], ref(x, w, b, c)) <= tol


# One-phase layers (dilation a multiple of the stride >= 2) on the register-A kernel (convt1d_fwd_wgmma_one_phase,
# CONVT1D_WGMMA_RS_OP=1): phase 0 as a stride-1 GEMM with its outputs s apart, the staged rows carrying the bias
# between them. y poisoned, against float64; the kernel must run where x's rows are whole 16-byte pieces (TMA), and
# its rows of other layers must come right from whatever path takes them (here: rows TMA cannot address, few tiles).
OP_SHAPES = [
    shape("kb79_like", 2, 32, 64, 3, 4096, stride=2, padding=1, dilation=2, bias=False),
    shape("kb79_bias_many_tiles", 4, 32, 64, 3, 40000, stride=2, padding=1, dilation=2),
    shape("s2_d4_cout40", 3, 32, 40, 3, 1000, stride=2, dilation=4),
    shape("s3_cout3_outpad", 3, 12, 3, 3, 776, stride=3, padding=2, output_padding=1, dilation=3),
    shape("s4_d8_outpad2", 2, 16, 24, 3, 1000, stride=4, padding=5, output_padding=2, dilation=8),
    shape("s2_cout17_padded", 2, 24, 17, 3, 304, stride=2, padding=5, output_padding=1, dilation=2, bias=False),
    shape("k1_three_chunks", 2, 96, 64, 1, 504, stride=2, output_padding=1, dilation=2),
    shape("rows_shift_per_sample", 40, 8, 3, 2, 2048, stride=2, dilation=2),
    shape("cout300_row_tiles", 2, 64, 300, 2, 2048, stride=2, dilation=2),
    shape("padding_eats_edges", 2, 8, 8, 3, 200, stride=2, padding=7, dilation=2),
    shape("odd_length_declines", 2, 40, 100, 3, 1001, stride=2, padding=1, dilation=2),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", OP_SHAPES, ids=[c["name"] for c in OP_SHAPES])
def test_wgmma_rs_one_phase(c, dtype, tol, tf32, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_WGMMA_RS_OP", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    es = torch.tensor([], dtype=dtype).element_size()
    if c["L"] * es % 16 == 0:
        assert any("fwd_wgmma_rs_kernel" in n for n in names), names
        assert not any("phase_fused" in n for n in names), names
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= tol


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
def test_wgmma_rs_one_phase_default(dtype, tol, tf32):
    # As shipped: split TF32 (TF32 off) takes the register-A one-phase forward from 4M output elements; TF32 and 16-bit
    # keep the phase-fused mma.sync kernel (runs 218-219). Below 4M neither takes the layer (16-bit may then run the
    # phase-merged register-A forward: same kernel name, so only the phase-fused kernel's absence is checked there).
    torch.backends.cudnn.allow_tf32 = tf32
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    for c, big in ((OP_SHAPES[1], True), (OP_SHAPES[0], False)):
        x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
        y, names = profiled_forward(x, w, b, c)
        if big:
            assert any("fwd_wgmma_rs_kernel" in n for n in names) == (not tf32), names
        assert any("fwd_phase_fused" in n for n in names) == (big and tf32), names
        assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= tol


def grad_input_profiled(c, dtype):
    """grad_x of a fresh random layer c, taken under the profiler: (names of the kernels that ran, grad_x, grad_x in
    float64, a function that takes grad_x again from the same inputs)."""
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    xr = x.clone().requires_grad_()
    y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
    gy = torch.randn(y.shape, generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
    again = lambda: torch.autograd.grad(y, xr, gy, retain_graph=True)[0]  # noqa: E731
    out = {}
    names = kernels_run(lambda: out.setdefault("gx", again()))
    x64 = x.double().requires_grad_()
    (gx64,) = torch.autograd.grad(ref(x64, w, b, c), x64, gy.double())
    return names, out["gx"], gx64, again


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
def test_wgmma_rs_grad_input_taken(dtype, tol, tf32):
    # Stride-1 grad_input runs the forward on grad_y, whose rows (L_out = 2050 here, 65538 on KernelBench
    # 64) are no 16-byte multiple: the RS kernel reads them by TMA as groups of 2 (fp32) or 4 (16-bit) rows
    # (session 18; one bulk copy per row before), as shipped, in every precision.
    torch.backends.cudnn.allow_tf32 = tf32
    c = dict(SHAPES[0], N=32)  # a tile per SM at least: the bulk staging's condition
    assert (out_len(c) * torch.empty(0, dtype=dtype).element_size()) % 16 != 0
    names, gx, gx64, _ = grad_input_profiled(c, dtype)
    assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    assert rs_pairs_ran(names) == (dtype != torch.float32), names  # 16-bit: position pairs (dilation 1)
    assert rel_err(gx, gx64) <= tol


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", [shape("single_utterance_x8", 1, 512, 256, 16, 861, stride=8, padding=4),
                               shape("s5_batch1_odd", 1, 320, 200, 10, 333, stride=5, padding=3, output_padding=2)],
                         ids=["single_utterance_x8", "s5_batch1_odd"])
def test_wgmma_grad_input_ksplit_taken(c, dtype, tol, tf32):
    # Batch-1 strided grad_input has too few tiles for the GPU: as shipped, the SS kernel splits its reduction
    # (fp32 partial sums added in a fixed order by ksplit_reduce_kernel, Session 19): right, and bitwise the same
    # on every run.
    torch.backends.cudnn.allow_tf32 = tf32
    names, gx, gx64, again = grad_input_profiled(c, dtype)
    assert any("ksplit_reduce_kernel" in n for n in names), names
    assert rel_err(gx, gx64) <= tol
    for _ in range(3):
        assert torch.equal(again(), gx)


def grouped_rows(lrow, es, channels):
    """Whether the register-A kernel reads rows of lrow elements by TMA (plain, or as groups of xg rows whose
    pitch is a 16-byte multiple: xg must divide the channels), as run_rs decides for an in-row layer."""
    rb = (lrow * es) % 16
    xg = 16 // math.gcd(rb, 16) if rb else 1
    return xg <= 4 and channels % xg == 0


# Stride-1 layers whose grad_y (or, last, x) rows TMA cannot address one by one: grad_y rows of 2050 values
# (fp32 groups of 2, 16-bit of 4: boxes 2 / 6, 4, 2 columns off), 2049 (fp32 groups of 4; 16-bit would need 8:
# declined), 4108 (fp32 plain rows, 16-bit groups of 2), 3003 with 36 channels (fp32 groups of 4 and a last
# chunk of 4 channels; 16-bit declined); a forward with padding (K-1)*d that reads only inside x's rows of 2050.
GROUPED = [shape("kb64_like", 2, 128, 128, 3, 2048, bias=False),
           shape("kb64_odd_grad_y", 2, 128, 128, 3, 2047, bias=False),
           shape("kb74_like", 3, 32, 64, 5, 4096, dilation=3, bias=False),
           shape("cout36_odd_grad_y", 4, 64, 36, 3, 3001),
           shape("fwd_pad_inside_rows", 2, 64, 48, 3, 2050, padding=2)]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("groups", ["1", "0"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", GROUPED, ids=[c["name"] for c in GROUPED])
def test_wgmma_rs_grouped_rows(c, dtype, tol, tf32, groups, monkeypatch):
    # Rows TMA cannot address one by one, read as groups of rows (WgArgs::xg; the packed weights' channels
    # permuted to match): CONVT1D_WGMMA_RS_GROUPS=1 takes that path or declines the register-A kernel, so its
    # kernel running proves the path ran; =0 is the bulk-copy staging before it. Output poisoned (forward) or
    # fresh (grad_input), against float64.
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_GROUPS", groups)
    monkeypatch.setenv("CONVT1D_BWD_INPUT_FUSED", "0")
    es = torch.tensor([], dtype=dtype).element_size()
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    out = {}
    if c["padding"] > 0:  # the forward itself
        names = kernels_run(lambda: out.setdefault("r", poison_then_run(x, w, b, c)))
        expect, rows, chans = ref(x, w, b, c), c["L"], c["Cin"]
    else:  # grad_input: the forward of the adjoint problem on grad_y
        xr = x.clone().requires_grad_()
        y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
        gy = torch.randn(y.shape, generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
        names = kernels_run(lambda: out.setdefault("r", torch.autograd.grad(y, xr, gy, retain_graph=True)[0]))
        x64 = x.double().requires_grad_()
        (expect,) = torch.autograd.grad(ref(x64, w, b, c), x64, gy.double())
        rows, chans = out_len(c), c["Cout"]
    assert (rows * es) % 16 != 0 or c["name"] == "kb74_like"
    if groups == "1":
        assert any("fwd_wgmma_rs_kernel" in n for n in names) == grouped_rows(rows, es, chans), names
    assert torch.isfinite(out["r"]).all() and rel_err(out["r"], expect) <= tol


STRIDED = [c for c in SHAPES if c["stride"] > 1]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", [shape("upsample_x8_b8", 8, 512, 256, 16, 4096, stride=8, padding=4),
                               shape("hifigan_up3_b8", 8, 128, 64, 4, 8192, stride=2, padding=1),
                               shape("kb79_b8_odd", 8, 32, 64, 3, 8192, stride=2, padding=1, dilation=2,
                                     output_padding=1, bias=False),
                               shape("bigvgan_up4_b4", 4, 192, 96, 4, 8192, stride=2, padding=1),
                               shape("bigvgan_up4_b3", 3, 192, 96, 4, 8192, stride=2, padding=1)],
                         ids=["upsample_x8", "hifigan_up3", "kb79_odd_grad_y", "tiles_128", "tiles_96"])
def test_wgmma_rs_grad_input_strided_taken(c, dtype, tol, tf32, monkeypatch):
    # As shipped, the strided grad_input of these layers runs the register-A kernel on grad_y in place
    # (batch 8: enough tiles for the GPU, which rs_bi_pays asks for: 7/8 of the SMs since Session 50 from a reduction
    # s*C_out*T of 256, so bigvgan_up4's 128 tiles of 256 positions x 256 channels on 132 SMs, not 96), except split TF32 past a reduction of
    # s*C_out*T = 2048 (upsample_x8: 4096), where it stays on the SS kernel, and 16-bit upsample_x8 (256 tiles,
    # under four per SM), where the SS kernel's unit-transposed planes win. kb79: phases that no tap
    # reaches (gcd(s, d) = 2) and an odd grad_y length (16-bit rows at odd offsets), by bulk copies. The fused
    # one-phase grad_input, which takes kb79 first at every size since Session 15, is off here.
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_BWD_INPUT_FUSED", "0")
    taps = (c["K"] - 1) * c["dilation"] // c["stride"] + 1
    rs_expected = tf32 or dtype != torch.float32 or c["stride"] * c["Cout"] * taps <= 2048
    tiles = c["N"] * -(-c["L"] // 256) * -(-c["Cin"] // 256)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    if (8 * tiles < 7 * sms if c["stride"] * c["Cout"] * taps >= 256 else tiles < sms):  # too few tiles for the GPU
        rs_expected = False
    # 16-bit stride 8 (the SS path's planes a unit transpose) with under four register-A tiles per SM: SS (run 136)
    if dtype != torch.float32 and c["stride"] == 8 and (c["padding"] * 2) % 8 == 0 and (out_len(c) * 2) % 8 == 0 \
            and tiles < 4 * sms:
        rs_expected = False
    names, gx, gx64, _ = grad_input_profiled(c, dtype)
    assert any("fwd_wgmma_rs_kernel" in n for n in names) == rs_expected, names
    assert rel_err(gx, gx64) <= tol


def group_views_aligned(c, es, extra=()):
    """Whether every group's view of the grouped layer c (its x, y and weight slices) starts 16-byte aligned where the
    whole tensors do, and the extra byte counts are 16-byte multiples too: where the grouped register-A paths run."""
    G = c["groups"]
    cin_g, cout_g = c["Cin"] // G, c["Cout"] // G
    return all(v % 16 == 0 for v in (cout_g * out_len(c) * es, cin_g * c["L"] * es, cin_g * cout_g * c["K"] * es, *extra))


def check_group_launches(names, kernel, c, pick, taken):
    """One launch of kernel per group where the grouped path is taken, none where it is not: forced, and by the heuristic
    on grouped_g4_b16 (the suite's grouped_g4 at half the batch: enough tiles per group)."""
    if pick == "forced" or c["name"] == "grouped_g4_b16":
        assert sum(kernel in n for n in names) == (c["groups"] if taken else 0), names


# Grouped strided grad_input (Session 24): the register-A kernel once per group, on the group's view of grad_y, w and
# grad_x, where every view is 16-byte aligned as the whole tensors are (else the mma.sync kernel, as before): groups
# of 32 channels, uneven C_in / C_out per group, stride 5 with output padding, phases without taps (s = d = 2) and
# odd grad_y rows (bulk-staged), eight groups; cin_g 33 makes the views unaligned. The heuristic takes it for up to
# eight groups of 32+ channels; forced (CONVT1D_WGMMA_RS=1) wherever the views allow. grad_x poisoned first.
GROUPED_BI = [
    dict(shape("g4_s2", 3, 128, 128, 4, 1000, stride=2, padding=1), groups=4),
    dict(shape("g2_s5_outpad_uneven", 2, 64, 96, 10, 333, stride=5, padding=3, output_padding=1), groups=2),
    dict(shape("g8_s2_dilated_odd", 2, 256, 256, 3, 517, stride=2, padding=2, dilation=2, bias=False), groups=8),
    dict(shape("g2_s3_unaligned_views", 2, 66, 68, 5, 301, stride=3, padding=1), groups=2),
    dict(shape("grouped_g4_b16", 16, 256, 256, 4, 4096, stride=2, padding=1), groups=4),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["forced", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", GROUPED_BI, ids=[c["name"] for c in GROUPED_BI])
def test_wgmma_rs_grad_input_grouped(c, dtype, tol, tf32, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_BWD_INPUT", "wgmma")
        monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    xr = x.clone().requires_grad_()
    y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
    gy = torch.randn(y.shape, generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
    out = {}

    def grad():
        junk = torch.full(x.shape, float("nan"), dtype=dtype, device="cuda")  # poison grad_x's block
        del junk
        out["gx"] = torch.autograd.grad(y, xr, gy)[0]

    names = kernels_run(grad)
    x64 = x.double().requires_grad_()
    (gx64,) = torch.autograd.grad(ref(x64, w, b, c), x64, gy.double())
    assert out["gx"].dtype == dtype and torch.isfinite(out["gx"]).all()
    assert rel_err(out["gx"], gx64) <= tol
    check_group_launches(names, "fwd_wgmma_rs_kernel", c, pick, group_views_aligned(c, x.element_size()))


# Grouped forward (Session 24): the register-A kernel once per group on the group's view of x, w, bias and y, where
# every view is 16-byte aligned and x goes by TMA boxes (rows a 16-byte multiple); else the mma.sync kernel. The
# grad_input shapes above (most of which leave TMA to the whole-tensor path: odd rows) and two more: uneven output
# channels at stride 4 (40 per group, 3 rows of the last tile unused), a stride-1 dilated layer of 16 output
# channels per group (forced only). The heuristic takes it for up to eight groups of 32+ channels, except in TF32.
# The forward asks for the wgmma kernels from 2^25 multiply-adds on (convt1d_fwd_tc): below, the mma.sync kernel.
GROUPED_FWD = GROUPED_BI + [
    dict(shape("g2_s4_uneven_cout", 4, 64, 80, 8, 1024, stride=4, padding=2), groups=2),
    dict(shape("g4_s1_dilated_narrow", 8, 128, 64, 3, 1024, dilation=2, padding=1), groups=4),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["forced", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", GROUPED_FWD, ids=[c["name"] for c in GROUPED_FWD])
def test_wgmma_rs_forward_grouped(c, dtype, tol, tf32, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    y64 = ref(x.double(), w.double(), None if b is None else b.double(), c)
    assert y.dtype == dtype and torch.isfinite(y).all()
    assert rel_err(y, y64) <= tol
    es, macs = x.element_size(), c["N"] * c["L"] * c["Cin"] * (c["Cout"] // c["groups"]) * c["K"]
    if pick == "forced":  # x by TMA boxes: rows a 16-byte multiple
        taken = group_views_aligned(c, es, (c["L"] * es,)) and macs >= 1 << 25
    else:  # not in TF32, where the mma.sync kernel wins (run 262)
        taken = not (dtype == torch.float32 and tf32)
    check_group_launches(names, "fwd_wgmma_rs_kernel", c, pick, taken)


def grad_weight(c, x, w, b, gy):
    wr = w.clone().requires_grad_()
    y = convt1d.conv_transpose1d(x, wr, b, **kwargs(c))
    junk = torch.full(w.shape, float("nan"), dtype=w.dtype, device=w.device)  # poison grad_w's block
    del junk
    (gw,) = torch.autograd.grad(y, wr, gy)
    return gw


def grad_weight_case(c, dtype, gen):
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    gy = torch.randn((c["N"], c["Cout"], out_len(c)), generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
    w64 = w.double().requires_grad_()
    y64 = ref(x.double(), w64, None if b is None else b.double(), c)
    (gw64,) = torch.autograd.grad(y64, w64, gy.double())
    return x, w, b, gy, gw64


@pytest.mark.parametrize("pick", ["forced", "forced_general", "chunked", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", STRIDED, ids=[c["name"] for c in STRIDED])
def test_wgmma_grad_weight(c, dtype, tol, tf32, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    if pick != "heuristic":  # the phase-plane kernel, not the register-A one that takes strides up to 4 first
        monkeypatch.setenv("CONVT1D_WGMMA_BW", "1")
        monkeypatch.setenv("CONVT1D_WGMMA_BW_RS", "0")
        monkeypatch.setenv("CONVT1D_BWD_WEIGHT_FUSED", "0")  # it takes kb79_like first at every size (Session 15)
    if pick == "forced_general":  # the general pre-passes: planes kernel, both shifted copies of x
        monkeypatch.setenv("CONVT1D_WGMMA_PLANES_UNITS", "0")
        monkeypatch.setenv("CONVT1D_WGMMA_BW_X0", "0")
    if pick == "chunked":  # about one sample per batch chunk: partials added chunk after chunk
        monkeypatch.setenv("CONVT1D_WGMMA_BW_SCRATCH", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b, gy, gw64 = grad_weight_case(c, dtype, gen)
    gw = grad_weight(c, x, w, b, gy)
    assert gw.dtype == dtype and torch.isfinite(gw).all()
    assert rel_err(gw, gw64) <= tol


@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
def test_wgmma_grad_weight_deterministic(dtype, tol, tf32, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_WGMMA_BW", "1")
    c = shape("upsample_x8_batch", 4, 512, 256, 16, 512, stride=8, padding=4)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b, gy, gw64 = grad_weight_case(c, dtype, gen)
    first = grad_weight(c, x, w, b, gy)
    assert rel_err(first, gw64) <= tol
    for _ in range(4):
        assert torch.equal(grad_weight(c, x, w, b, gy), first)


@pytest.mark.parametrize("pick", ["forced", "forced_general", "forced_ksplit3", "forced_ksplit_all", "rs", "rs128x1",
                                  "rsnobulk", "rsdirect", "rsstaged", "rspp", "rsnowres", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", STRIDED, ids=[c["name"] for c in STRIDED])
def test_wgmma_grad_input_strided(c, dtype, tol, tf32, pick, monkeypatch):
    # Strided grad_input (convt1d_bwd_input_wgmma): forced, grad_y's phase planes written transposed, then
    # the SS kernel with taps stepping backwards; rs*, the register-A kernel reading grad_y in place (its
    # phase channels picked by address; rows staged by bulk copies, rsnobulk by 4-byte cp.async, where 16-bit
    # with odd grad_y lengths falls back); grad_x's memory poisoned first.
    torch.backends.cudnn.allow_tf32 = tf32
    if pick.startswith("forced"):
        monkeypatch.setenv("CONVT1D_BWD_INPUT", "wgmma")
        monkeypatch.setenv("CONVT1D_WGMMA", "1")
        if pick == "forced_general":  # planes by the general transpose where the unit transpose would take them
            monkeypatch.setenv("CONVT1D_WGMMA_PLANES_UNITS", "0")
        elif pick == "forced_ksplit3":  # the reduction split in 3 (fp32 partial sums, then ksplit_reduce_kernel)
            monkeypatch.setenv("CONVT1D_WGMMA_KSPLIT", "3")
        elif pick == "forced_ksplit_all":  # one channel chunk per split
            monkeypatch.setenv("CONVT1D_WGMMA_KSPLIT", "4096")
    elif pick.startswith("rs"):
        monkeypatch.setenv("CONVT1D_BWD_INPUT", "wgmma")
        set_pick(pick, monkeypatch)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    gy = torch.randn((c["N"], c["Cout"], out_len(c)), generator=gen, dtype=torch.float64).to(device="cuda", dtype=dtype)
    xr = x.clone().requires_grad_()
    y = convt1d.conv_transpose1d(xr, w, b, **kwargs(c))
    junk = torch.full(x.shape, float("nan"), dtype=dtype, device="cuda")
    del junk
    (gx,) = torch.autograd.grad(y, xr, gy)
    x64 = x.double().requires_grad_()
    (gx64,) = torch.autograd.grad(ref(x64, w, b, c), x64, gy.double())
    assert gx.dtype == dtype and torch.isfinite(gx).all()
    assert rel_err(gx, gx64) <= tol


# grad_weight on the register-A kernel (src/cuda/bwd_weight_rs.cu, strides 1..4): grad_y in registers with
# each tap's shift as address arithmetic, x by TMA. Forced (CONVT1D_WGMMA_BW_RS=1) and as shipped, on the
# stride 1..4 shapes above (one tap, 3, 5 and 9 taps: 9 runs two tap groups of 5 with the excess tap dropped;
# padding past the span; C_out <= 64, where the two consumer warpgroups take alternate stages; kb79_like:
# phases without taps) and a few made for it: odd C_in and C_out (scalar partial stores, rows past C_out
# unstaged), C_out between 64 and 128 (a half-empty second warpgroup), 16 taps (two groups of 8), a batch
# row split across reduction splits. Shapes it does not take (x rows no 16-byte multiple, 16-bit grad_y of
# odd length, strict fp32, strides past 4) fall back and must still be right. grad_w's memory is poisoned
# first.
RS_BW = [c for c in SHAPES if c["stride"] <= 4] + [
    shape("s1_odd_channels", 3, 37, 45, 3, 1024, padding=1),
    shape("s1_cout_100", 2, 64, 100, 4, 2048, dilation=2),
    shape("s1_k16_aligned", 2, 64, 48, 16, 512, padding=5),
    shape("s1_long_batch1", 1, 128, 128, 3, 65536, bias=False),
    shape("s1_odd_grad_y", 2, 64, 48, 4, 2048, padding=1),
    shape("s1_cout64_grad_y_4mod8", 2, 48, 64, 3, 2050),  # 16-bit rows of 2052: residues in pairs, alternate stages
]


# Grouped grad_weight on the register-A kernel (Session 24): one launch per group on the group's views of grad_y and x
# into the group's slice of grad_w, where every view is aligned as the whole tensors are and the layer is one it takes
# at groups 1 (stride <= 4, x rows a 16-byte multiple, 16-bit grad_y rows of even length). Groups of 32 channels at
# stride 2, uneven output channels per group at stride 1, eight groups at stride 3 (odd grad_y rows: 16-bit falls back).
GROUPED_BW = [
    dict(shape("g4_s2", 4, 128, 128, 4, 2048, stride=2, padding=1), groups=4),
    dict(shape("g2_s1_uneven", 2, 64, 96, 3, 4096, padding=1), groups=2),
    dict(shape("g8_s3_odd_grad_y", 2, 256, 256, 6, 1000, stride=3, padding=1), groups=8),
    dict(shape("grouped_g4_b16", 16, 256, 256, 4, 4096, stride=2, padding=1), groups=4),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["forced", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", GROUPED_BW, ids=[c["name"] for c in GROUPED_BW])
def test_wgmma_grad_weight_rs_grouped(c, dtype, tol, tf32, pick, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_WGMMA_BW_RS", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b, gy, gw64 = grad_weight_case(c, dtype, gen)
    out = {}
    names = kernels_run(lambda: out.setdefault("gw", grad_weight(c, x, w, b, gy)))
    assert out["gw"].dtype == dtype and torch.isfinite(out["gw"]).all()
    assert rel_err(out["gw"], gw64) <= tol
    es = x.element_size()
    taken = (tf32 or dtype != torch.float32) and group_views_aligned(c, es, (c["L"] * es,)) and \
        not (es == 2 and out_len(c) % 2)  # strict fp32 is not this kernel's; 16-bit grad_y rows of even length
    check_group_launches(names, "bwd_weight_rs_kernel", c, pick, taken)


# noperm: grad_y rows staged in order (CONVT1D_WGMMA_BW_RS_PERM=0), not grouped by residue: kb64_like (2050: fp32
# residues in pairs, 16-bit in fours), s1_cout_100 (rows past C_out in the block), s1_odd_grad_y (fp32 fours).
# Interior chunks' grad_y windows come by TMA boxes over residue groups (Session 18); notma: by one bulk copy per
# row, as before (CONVT1D_WGMMA_BW_RS_TMA=0). minstages1: splits of one stage at least (CONVT1D_WGMMA_BW_RS_MINSTAGES=1,
# the default 64): the most partial slots the split picker gives, still summed in order.
@pytest.mark.parametrize("pick", ["forced", "cps1", "cps4", "noperm", "notma", "minstages1", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", RS_BW, ids=[c["name"] for c in RS_BW])
def test_wgmma_grad_weight_rs(c, dtype, tol, tf32, pick, monkeypatch):
    # cpsN: up to N 128-byte chunks of positions per stage (the default is 2; fewer where 3 stages do not fit).
    torch.backends.cudnn.allow_tf32 = tf32
    if pick != "heuristic":
        monkeypatch.setenv("CONVT1D_WGMMA_BW_RS", "1")
        monkeypatch.setenv("CONVT1D_BWD_WEIGHT_FUSED", "0")  # it takes kb79_like first at every size (Session 15)
    if pick.startswith("cps"):
        monkeypatch.setenv("CONVT1D_WGMMA_BW_RS_CPS", pick[3:])
    if pick == "noperm":
        monkeypatch.setenv("CONVT1D_WGMMA_BW_RS_PERM", "0")
    if pick == "notma":
        monkeypatch.setenv("CONVT1D_WGMMA_BW_RS_TMA", "0")
    if pick == "minstages1":
        monkeypatch.setenv("CONVT1D_WGMMA_BW_RS_MINSTAGES", "1")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b, gy, gw64 = grad_weight_case(c, dtype, gen)
    gw = grad_weight(c, x, w, b, gy)
    assert gw.dtype == dtype and torch.isfinite(gw).all()
    assert rel_err(gw, gw64) <= tol
    if pick in ("forced", "minstages1"):  # fixed splits, slots summed in order: bitwise the same again
        assert torch.equal(grad_weight(c, x, w, b, gy), gw)


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES[:3])
@pytest.mark.parametrize("c", [SHAPES[0], SHAPES[1], SHAPES[2], SHAPES[4]] +
                         [c for c in RS_BW if c["name"] in ("s1_long_batch1", "s1_odd_grad_y")],
                         ids=["kb64_like", "kb74_like", "kb79_like", "hifigan_up3_like", "long_batch1", "s1_odd_grad_y"])
def test_wgmma_grad_weight_rs_taken(c, dtype, tol, tf32, monkeypatch):
    # As shipped, these grad_weights run bwd_weight_rs_kernel (a silent fallback would pass the checks
    # above), and twice in a row give bitwise the same gradient (fixed splits, slots summed in order); not
    # in 16-bit with a grad_y of odd length (s1_odd_grad_y: its 4-byte staging words) unless all taps read
    # one phase of grad_y whose gathered length is even (kb79_like: bwd_weight_rs_phase). The fused one-phase
    # kernel, which takes kb79_like first at every size since Session 15, is off here (test_cuda.py tests it).
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_BWD_WEIGHT_FUSED", "0")
    expected = dtype == torch.float32 or out_len(c) % 2 == 0 or one_phase_even(c)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b, gy, gw64 = grad_weight_case(c, dtype, gen)
    out = {}
    names = kernels_run(lambda: out.setdefault("gw", grad_weight(c, x, w, b, gy)))
    assert any("bwd_weight_rs_kernel" in n for n in names) == expected, names
    assert rel_err(out["gw"], gw64) <= tol
    assert torch.equal(grad_weight(c, x, w, b, gy), out["gw"])


def one_phase_even(c, es=2):
    """All taps on one phase of grad_y (dilation a multiple of stride >= 2), x rows of 16-byte multiples and,
    in 16-bit (es 2), that phase of even length: the grad_weight can then gather the phase and run the
    register-A kernel at stride 1."""
    s, p = c["stride"], c["padding"]
    if s < 2 or c["dilation"] % s or (c["L"] * es) % 16:
        return False
    r = (-p) % s
    return es == 4 or ((out_len(c) - r + s - 1) // s) % 2 == 0  # 16-bit rows of even length


ONE_PHASE = [
    SHAPES[2],
    shape("p0_d4_s2", 2, 32, 64, 3, 4000, stride=2, padding=0, dilation=4, bias=False),
    shape("s3_d3_p2", 2, 48, 32, 4, 2100, stride=3, padding=2, dilation=3),
    shape("s2_d2_p3_outpad_odd_len", 3, 64, 40, 5, 513, stride=2, padding=3, output_padding=1, dilation=2),
    shape("s2_d2_p3_outpad", 3, 64, 40, 5, 520, stride=2, padding=3, output_padding=1, dilation=2),
    shape("s4_d8_p5", 1, 32, 80, 3, 4096, stride=4, padding=5, dilation=8, bias=False),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernel")
@pytest.mark.parametrize("pick", ["forced", "heuristic"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES[:3])
@pytest.mark.parametrize("c", ONE_PHASE, ids=[c["name"] for c in ONE_PHASE])
def test_wgmma_grad_weight_one_phase(c, dtype, tol, tf32, pick, monkeypatch):
    # Layers whose taps all read one phase of grad_y: the phase is gathered (gy_phase_kernel) and the
    # register-A kernel runs the stride-1 problem; as shipped only where it declines the layer as it is
    # (16-bit, odd grad_y length), forced (CONVT1D_WGMMA_BW_PHASE=1) also in TF32 and for even lengths.
    # Right against float64, bitwise repeatable; a case it declines (odd phase length) must still be right.
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_BWD_WEIGHT_FUSED", "0")  # the fused one-phase kernel has its own test (test_cuda.py)
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_WGMMA_BW_PHASE", "1")
    half = dtype != torch.float32
    expected = one_phase_even(c, 2 if half else 4) and (pick == "forced" or (half and out_len(c) % 2 == 1))
    if not half and pick == "forced":  # TF32 only (strict fp32 never takes the register-A kernel)
        expected = expected and tf32 and c["Cin"] >= 16 and c["Cout"] >= 16
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b, gy, gw64 = grad_weight_case(c, dtype, gen)
    out = {}
    names = kernels_run(lambda: out.setdefault("gw", grad_weight(c, x, w, b, gy)))
    assert any("gy_phase_kernel" in n for n in names) == expected, names
    assert rel_err(out["gw"], gw64) <= tol
    assert torch.equal(grad_weight(c, x, w, b, gy), out["gw"])



# The unit transposes of grad_y's phase planes (a plane position of one channel = 16 or 32 bytes starting 8-byte
# aligned): grad_input's transposed planes (wgmma_planes_t_units_kernel) and grad_weight's planes
# (bw_planes_units_kernel); and grad_weight's shift 0 read from x itself with the one shifted copy by
# bw_shift1_kernel (16-bit, two shifts, x rows a 16-byte multiple). Each runs where its rule says, and the
# gradients match float64 either way (general: every general pre-pass forced).
UNIT_CASES = [shape("s8_p4", 3, 256, 96, 16, 300, stride=8, padding=4),     # 16-bit: 16-byte units; fp32: 32 bytes
              shape("s16_p8", 2, 128, 40, 32, 130, stride=16, padding=8),  # 16-bit: 32 bytes; fp32: 64, general
              shape("s8_p3", 2, 128, 64, 16, 200, stride=8, padding=3),    # units start at odd elements: general
              shape("s4_p2", 2, 128, 72, 8, 520, stride=4, padding=2)]     # fp32 16-byte units; 16-bit 8: general


def units_expected(c, dtype):
    es = torch.tensor([], dtype=dtype).element_size()
    lout = out_len(c)
    return c["stride"] * es in (16, 32) and (c["padding"] * es) % 8 == 0 and (lout * es) % 8 == 0


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernels")
@pytest.mark.parametrize("general", [False, True], ids=["shipped", "general"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", UNIT_CASES, ids=[c["name"] for c in UNIT_CASES])
def test_wgmma_planes_units(c, dtype, tol, tf32, general, monkeypatch):
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_BWD_INPUT", "wgmma")
    monkeypatch.setenv("CONVT1D_WGMMA", "1")  # the SS path (planes transposed), not the register-A one
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "0")
    monkeypatch.setenv("CONVT1D_WGMMA_BW", "1")  # grad_weight on the phase planes
    monkeypatch.setenv("CONVT1D_WGMMA_BW_RS", "0")
    monkeypatch.setenv("CONVT1D_BWD_WEIGHT_FUSED", "0")
    if general:
        monkeypatch.setenv("CONVT1D_WGMMA_PLANES_UNITS", "0")
        monkeypatch.setenv("CONVT1D_WGMMA_BW_X0", "0")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b, gy, gw64 = grad_weight_case(c, dtype, gen)
    out = {}
    op = torch.ops.convt1d.conv_transpose1d_backward.default
    conv = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    junk = torch.full(x.shape, float("nan"), dtype=dtype, device="cuda")
    del junk
    names = kernels_run(lambda: out.setdefault("g", op(gy, x, w, *conv, [True, True, False])))
    want = units_expected(c, dtype) and not general
    assert any("wgmma_planes_t_units_kernel" in n for n in names) == want, names
    assert any("bw_planes_units_kernel" in n for n in names) == want, names
    es = x.element_size()
    taps = (c["K"] - 1) * c["dilation"] // c["stride"] + 1
    want_x0 = es == 2 and taps == 2 and (c["L"] * es) % 16 == 0 and not general
    assert any("bw_shift1_kernel" in n for n in names) == want_x0, names
    gx, gw = out["g"][0], out["g"][1]
    x64 = x.double().requires_grad_()
    (gx64,) = torch.autograd.grad(ref(x64, w, b, c), x64, gy.double())
    assert torch.isfinite(gx).all() and rel_err(gx, gx64) <= tol
    assert torch.isfinite(gw).all() and rel_err(gw, gw64) <= tol


# The register-A forward drops a last position tile holding at most 8 valid plane positions and fwd_edge_kernel
# writes its outputs (o >= q_last * stride - padding): forced (CONVT1D_WGMMA_RS_EDGE=1) wherever it applies, off, and
# as shipped on codec_dec_s8's layer, where on a 132-SM GPU it saves two rounds of the persistent grid. y poisoned.
# Layers the register-A kernel takes when forced (runs 145-146: it declined layers with three taps per phase or with
# output_padding, which then never reach the edge path).
EDGE = [  # L = 256: plane positions 0..256, so the last tile holds one at 128 and at 256 positions per tile
    shape("edge_s8_four_columns", 3, 128, 72, 16, 256, stride=8, padding=4),  # o = 2044..2047, ragged C_out
    shape("edge_s4_batch18", 18, 64, 32, 8, 256, stride=4, padding=2),        # three passes of 8 samples
    # eight plane positions in the last tile: o = 511..525, 15 columns, nine taps of which one or two reach each
    shape("edge_s2_k18_fifteen_columns", 2, 320, 40, 18, 256, stride=2, padding=1),
    # stride 5 with output_padding (codec_dec_s5's form): the last plane position's columns, one tap each
    shape("edge_s5_output_padding", 5, 192, 40, 10, 256, stride=5, padding=3, output_padding=1),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernels")
@pytest.mark.parametrize("edge", ["forced", "forced_after", "off"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES)
@pytest.mark.parametrize("c", EDGE, ids=[c["name"] for c in EDGE])
def test_wgmma_rs_edge(c, dtype, tol, tf32, edge, monkeypatch):
    # forced: the edge kernel beside the forward on a second stream (session 21); forced_after: after it on the same one
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_EDGE", "0" if edge == "off" else "1")
    if edge == "forced_after":
        monkeypatch.setenv("CONVT1D_WGMMA_RS_EDGE_BESIDE", "0")
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    y, names = profiled_forward(x, w, b, c)
    assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    assert any("fwd_edge_kernel" in n for n in names) == (edge != "off"), names
    assert y.dtype == dtype and torch.isfinite(y).all()
    r = ref(x, w, b, c)
    assert rel_err(y, r) <= tol
    # the edge kernel's columns (at most 8 positions x the stride) on their own scale
    assert rel_err(y[..., -64:], r[..., -64:]) <= tol


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernels")
@pytest.mark.parametrize("dtype,tol", [(torch.bfloat16, 1e-2), (torch.float32, 5e-3)])
def test_wgmma_rs_edge_in_cuda_graph(dtype, tol, monkeypatch):
    # The edge kernel's second stream is forked and joined in stream order: an eager call followed by work on the
    # caller's stream sees every column, and inside a CUDA graph capture the edge runs on the captured stream; the
    # graph replayed on new inputs.
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_EDGE", "1")
    torch.backends.cudnn.allow_tf32 = True
    c = EDGE[0]
    x, w, b = make_inputs(c, dtype=dtype, device="cuda")
    y_eager = convt1d.conv_transpose1d(x, w, b, **kwargs(c)) * 1.0  # the multiply runs on the caller's stream
    assert rel_err(y_eager, ref(x, w, b, c)) <= tol
    g, y = captured(lambda: convt1d.conv_transpose1d(x, w, b, **kwargs(c)))
    x.copy_(torch.randn_like(x))
    g.replay()
    torch.cuda.synchronize()
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= tol


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernels")
@pytest.mark.parametrize("dtype,tol", [(torch.bfloat16, 1e-2), (torch.float16, 2e-3)])
def test_wgmma_rs_edge_shipped_codec(dtype, tol):
    c = shape("codec_dec_s8", 8, 1536, 768, 16, 1024, stride=8, padding=4)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda")
    w = w * 0.1
    y, names = profiled_forward(x, w, b, c)
    if torch.cuda.get_device_properties(0).multi_processor_count == 132:  # H100 SXM / H200: 14 -> 12 rounds
        assert any("fwd_edge_kernel" in n for n in names), names
    assert torch.isfinite(y).all() and rel_err(y, ref(x, w, b, c)) <= tol


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernels")
@pytest.mark.parametrize("cached", [False, True], ids=["plain", "cached"])
@pytest.mark.parametrize("dtype,tol,tf32", [(torch.float16, 2e-3, True), (torch.float32, 5e-3, True),
                                            (torch.float32, 1e-5, False)], ids=["fp16", "tf32", "strict"])
def test_wgmma_ss_programmatic_launch(dtype, tol, tf32, cached, monkeypatch):
    # The SS GEMM is launched to overlap the end of its pre-pass (or, with the weight cache, of its input transpose);
    # its producer waits for that kernel's writes before its first load. y must be the plain launch's, bit for bit,
    # eagerly and replayed from a CUDA graph on new inputs, and the SS kernel must be the one that ran.
    torch.backends.cudnn.allow_tf32 = tf32
    c = shape("batch1_x8", 1, 512, 256, 16, 333, stride=8, padding=4)
    m = convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], stride=8, padding=4, device="cuda", dtype=dtype)
    if cached:
        m.cache_packed_weights()
    x = make_inputs(c, dtype=dtype, device="cuda")[0]
    out = {}
    with torch.no_grad():
        names = kernels_run(lambda: out.__setitem__("y", m(x)))
        assert any("fwd_wgmma_kernel" in n for n in names), names
        y_pdl = out["y"]
        monkeypatch.setenv("CONVT1D_WGMMA_PDL", "0")
        y_plain = m(x)
        monkeypatch.delenv("CONVT1D_WGMMA_PDL")
        assert torch.equal(y_pdl, y_plain)
        r = ref(x, m.weight.detach(), m.bias.detach(), c)
        assert rel_err(y_pdl, r) <= tol
        g, y = captured(lambda: m(x))
        x.copy_(torch.randn_like(x))
        g.replay()
        torch.cuda.synchronize()
        monkeypatch.setenv("CONVT1D_WGMMA_PDL", "0")
        assert torch.equal(y, m(x))


RS_PDL = [  # register-A forwards after their weight pack: edge columns beside (strided), RX boxes (TF32), pairs (16-bit)
    EDGE[0],
    shape("kb74_like", 2, 32, 64, 5, 4096, dilation=3, bias=False),
    SHAPES[0],
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernels")
@pytest.mark.parametrize("pack", ["vector", "scalar"])
@pytest.mark.parametrize("dtype,tol,tf32", [(torch.float16, 2e-3, True), (torch.float32, 5e-3, True),
                                            (torch.float32, 1e-5, False)], ids=["fp16", "tf32", "strict"])
@pytest.mark.parametrize("c", RS_PDL, ids=[c["name"] for c in RS_PDL])
def test_wgmma_rs_programmatic_launch(c, dtype, tol, tf32, pack, monkeypatch):
    # The register-A forward is launched to overlap the end of its weight pack (either pack kernel); its producer waits
    # for the pack's writes before its first read. y must be the plain launch's, bit for bit, eagerly and replayed from a
    # CUDA graph in which x comes from the kernel just before the call (the wait must cover what ran before the pack).
    torch.backends.cudnn.allow_tf32 = tf32
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    if pack == "scalar":
        monkeypatch.setenv("CONVT1D_WGMMA_PACK", "0")
    x, w, b = make_inputs(c, dtype=dtype, device="cuda")
    y_pdl, names = profiled_forward(x, w, b, c)
    assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    monkeypatch.setenv("CONVT1D_WGMMA_PDL", "0")
    y_plain = convt1d.conv_transpose1d(x, w, b, **kwargs(c))
    monkeypatch.delenv("CONVT1D_WGMMA_PDL")
    assert torch.equal(y_pdl, y_plain)
    assert rel_err(y_pdl, ref(x, w, b, c)) <= tol
    g, y = captured(lambda: convt1d.conv_transpose1d(x * 2, w, b, **kwargs(c)))
    x.copy_(torch.randn_like(x))
    g.replay()
    torch.cuda.synchronize()
    monkeypatch.setenv("CONVT1D_WGMMA_PDL", "0")
    assert torch.equal(y, convt1d.conv_transpose1d(x * 2, w, b, **kwargs(c)))


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernels")
@pytest.mark.parametrize("ppo_k", ["stages", "1"])
@pytest.mark.parametrize("ppo", ["2", "1"])
@pytest.mark.parametrize("dtype,tol,tf32", [(torch.float16, 2e-3, True), (torch.float32, 5e-3, True)], ids=["fp16", "tf32"])
def test_wgmma_rs_ordered_pingpong(dtype, tol, tf32, ppo, ppo_k, monkeypatch):
    # Ordered ping-pong (WgArgs::ppo): the warpgroups' tiles alternate through a ring of fewer stages than a tile's
    # chunks + 1, ordered by named barriers. The ordering only acts between a block's tiles, so the layer gives every
    # block several (N x 129 tiles of 128 positions on 132 SMs). Ping-pong changes no sum's order: y must equal the
    # one-tile-per-block-pair kernel's bit for bit. "2": two stages, "1": as many as fit (three in TF32; fp16 with its
    # two chunks then pings without the order). ppo_k: one ordering barrier per stage (the default) or one per tile,
    # after the last chunk (WgArgs::ppo_k = 1, Session 32's form).
    torch.backends.cudnn.allow_tf32 = tf32
    c = shape("kb64_many_tiles", 6, 128, 128, 3, 16384, bias=False)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda")
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_TILE", "128x2")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_WRES", "0")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_PP", "0")
    y_plain = poison_then_run(x, w, b, c)
    monkeypatch.setenv("CONVT1D_WGMMA_RS_PP", "1")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_PPO", ppo)
    if ppo_k == "1":
        monkeypatch.setenv("CONVT1D_WGMMA_RS_PPO_K", "1")
    y = poison_then_run(x, w, b, c)
    assert torch.equal(y, y_plain)
    assert rel_err(y, ref(x, w, b, c)) <= tol


FAST_EPILOGUE_LAYERS = [
    shape("s8_pairs_partial_row_tile", 2, 96, 150, 16, 704, stride=8, padding=4),  # 256x1: 5 row tiles, the last short
    shape("s5_spare_rows", 2, 64, 256, 10, 304, stride=5, padding=3, output_padding=1),  # odd phases: no pairs; spare rows
    shape("s4_pairs_no_bias", 3, 96, 40, 8, 512, stride=4, padding=2, bias=False),
    shape("s3_general_odd_cout", 2, 96, 100, 7, 400, stride=3, padding=1),
]


@pytest.mark.skipif(not cuda_ready() or torch.cuda.get_device_capability()[0] != 9, reason="Hopper kernels")
@pytest.mark.parametrize("tile", ["shipped", "256x1", "64x2"])
@pytest.mark.parametrize("c", FAST_EPILOGUE_LAYERS, ids=lambda c: c["name"])
@pytest.mark.parametrize("dtype,tol,tf32", DTYPES[:3])
def test_wgmma_rs_fast_epilogue(dtype, tol, tf32, c, tile, monkeypatch):
    # Stores straight from the accumulators (WgArgs::pfast): phase-merged rows (stride > 1) of interior tiles take
    # loops without checks; the first and last position tiles and row tiles past C_out the checked ones. Same values,
    # same bits: y must equal the checked loops' on every tile (CONVT1D_WGMMA_RS_PFAST=0), with no element left
    # unwritten.
    torch.backends.cudnn.allow_tf32 = tf32
    x, w, b = make_inputs(c, dtype=dtype, device="cuda")
    monkeypatch.setenv("CONVT1D_WGMMA_RS", "1")
    monkeypatch.setenv("CONVT1D_WGMMA_RS_EPI", "direct")
    if tile != "shipped":
        monkeypatch.setenv("CONVT1D_WGMMA_RS_TILE", tile)
    monkeypatch.setenv("CONVT1D_WGMMA_RS_PFAST", "0")
    y_checked = poison_then_run(x, w, b, c)
    monkeypatch.delenv("CONVT1D_WGMMA_RS_PFAST")
    y, names = profiled_forward(x, w, b, c)
    assert any("fwd_wgmma_rs_kernel" in n for n in names), names
    assert torch.equal(y, y_checked)
    assert rel_err(y, ref(x, w, b, c)) <= tol
