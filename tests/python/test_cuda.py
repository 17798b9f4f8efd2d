"""CUDA checks (skipped without a GPU and a CUDA build of the library)."""
import pytest
import torch
import torch.nn.functional as F

import convt1d
from helpers import (captured, cuda_ready, edge_cases, kernels_run, kwargs, make_inputs, out_len, random_configs, ref,
                     rel_err, shrink, suite)

pytestmark = [pytest.mark.cuda,
              pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU and a CUDA build of libconvt1d")]

CASES = edge_cases() + [shrink(c, max_len=512, max_n=4) for c in suite()] + random_configs(60, seed=11)
IDS = [c["name"] for c in CASES]


@pytest.fixture
def strict_fp32():
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    yield
    torch.backends.cudnn.allow_tf32 = old


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_cuda_f64(c):
    x, w, b = make_inputs(c, device="cuda")
    y = convt1d.conv_transpose1d(x, w, b, **kwargs(c))
    assert y.is_cuda and rel_err(y, ref(x, w, b, c)) <= 1e-12  # reference: cuDNN float64 on the GPU


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_cuda_f32_strict(c, strict_fp32):
    x, w, b = make_inputs(c, device="cuda")
    y = convt1d.conv_transpose1d(x.float(), w.float(), None if b is None else b.float(), **kwargs(c))
    assert rel_err(y, ref(x, w, b, c)) <= 1e-5


@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_cuda_tf32_mode(c):
    torch.backends.cudnn.allow_tf32 = True
    x, w, b = make_inputs(c, device="cuda")
    y = convt1d.conv_transpose1d(x.float(), w.float(), None if b is None else b.float(), **kwargs(c))
    assert rel_err(y, ref(x, w, b, c)) <= 5e-3  # TF32 has a 10-bit mantissa


@pytest.mark.parametrize("dtype,tol", [(torch.float16, 2e-3), (torch.bfloat16, 1e-2)])
@pytest.mark.parametrize("c", CASES, ids=IDS)
def test_cuda_half(c, dtype, tol):
    x, w, b = make_inputs(c, dtype=dtype, device="cuda")
    y = convt1d.conv_transpose1d(x, w, b, **kwargs(c))
    assert y.dtype == dtype and rel_err(y, ref(x, w, b, c)) <= tol


@pytest.mark.parametrize("c", CASES[:30], ids=IDS[:30])
def test_cuda_grads_f64(c):
    x, w, b = make_inputs(c, device="cuda")
    ins = [t.clone().requires_grad_() for t in (x, w) + ((b,) if b is not None else ())]
    y = convt1d.conv_transpose1d(ins[0], ins[1], ins[2] if b is not None else None, **kwargs(c))
    gy = torch.randn_like(y)
    ours = torch.autograd.grad(y, ins, gy)
    ins_c = [t.detach().clone().requires_grad_() for t in ins]
    yr = F.conv_transpose1d(ins_c[0], ins_c[1], ins_c[2] if b is not None else None, **kwargs(c))
    theirs = torch.autograd.grad(yr, ins_c, gy)
    for o, t in zip(ours, theirs):
        assert rel_err(o, t) <= 1e-12


def test_cuda_grads_f32_strict(strict_fp32):
    c = dict(N=4, Cin=32, Cout=48, K=5, L=300, stride=3, padding=2, output_padding=1, groups=2,
             dilation=2, bias=True)
    x, w, b = make_inputs(c)
    gy = torch.randn(ref(x, w, b, c).shape, dtype=torch.float64)
    ins = [t.float().cuda().requires_grad_() for t in (x, w, b)]
    ours = torch.autograd.grad(convt1d.conv_transpose1d(*ins, **kwargs(c)), ins, gy.float().cuda())
    ins64 = [t.clone().requires_grad_() for t in (x, w, b)]
    theirs = torch.autograd.grad(F.conv_transpose1d(*ins64, **kwargs(c)), ins64, gy)
    for o, t in zip(ours, theirs):
        assert rel_err(o, t) <= 1e-5


# Layers the fuzz (dev/python/fuzz.py, run 271) found: split-TF32 grad_input summed a whole C_out/groups x K reduction
# in the tensor cores' accumulators (relative error 1.05e-5 to 6.3e-5; cuDNN 1.2e-6 to 4.0e-6); 16-bit grad_weight
# read grad_y as aligned 4-byte pairs even when grad_y began one element into its buffer (misaligned address).
FUZZ_CASES = [
    dict(name="fuzz232", N=3, Cin=75, Cout=1536, K=13, L=319, stride=3, padding=6, output_padding=1, groups=3,
         dilation=1, bias=True),
    dict(name="fuzz252", N=2, Cin=288, Cout=768, K=14, L=9, stride=2, padding=12, output_padding=1, groups=3,
         dilation=1, bias=True),
    dict(name="fuzz650", N=3, Cin=32, Cout=2048, K=16, L=87, stride=2, padding=0, output_padding=0, groups=4,
         dilation=1, bias=False),
    dict(name="fuzz837", N=1, Cin=63, Cout=113, K=12, L=7211, stride=1, padding=60, output_padding=4, groups=1,
         dilation=5, bias=False),
    dict(name="fuzz364", N=2, Cin=512, Cout=24, K=12, L=768, stride=1, padding=2, output_padding=0, groups=4,
         dilation=1, bias=True),
    dict(name="fuzz852", N=4, Cin=1336, Cout=1368, K=14, L=304, stride=3, padding=7, output_padding=0, groups=8,
         dilation=1, bias=True),
    dict(name="s2_plain", N=2, Cin=96, Cout=64, K=4, L=1000, stride=2, padding=1, output_padding=0, groups=1,
         dilation=1, bias=True),
]


@pytest.mark.parametrize("gy_offset", [False, True], ids=["gy_aligned", "gy_offset1"])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("c", FUZZ_CASES, ids=[c["name"] for c in FUZZ_CASES])
def test_cuda_grads_fuzz_layers(c, mode, tol, gy_offset, monkeypatch):
    # Every gradient against float64 on the same rounded values, grad_y aligned or one element into its buffer (no
    # vector of it aligned); fresh inputs.
    monkeypatch.setattr(torch.backends.cudnn, "allow_tf32", mode != "strict")
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16}.get(mode, torch.float32)
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    shape = ref(x, w, b, c).shape
    gy = torch.randn(shape.numel() + 1, generator=gen).to(dtype).cuda()
    gy = gy[1:].view(shape) if gy_offset else gy[:-1].view(shape)
    ins = [t.clone().requires_grad_() for t in (x, w) + ((b,) if b is not None else ())]
    ours = torch.autograd.grad(convt1d.conv_transpose1d(ins[0], ins[1], ins[2] if b is not None else None, **kwargs(c)),
                               ins, gy)
    torch.cuda.synchronize()
    ins64 = [t.double().requires_grad_() for t in ins]
    theirs = torch.autograd.grad(ref(ins64[0], ins64[1], ins64[2] if b is not None else None, c), ins64, gy.double())
    for name, o, t in zip(["grad_x", "grad_w", "grad_b"], ours, theirs):
        assert o.dtype == dtype and rel_err(o, t) <= tol, name


# Strided grad_input above the tiny-problem threshold: as shipped it takes the phase-plane path (stride-1
# tensor-core forward on the phase planes of grad_y); CONVT1D_BWD_INPUT forces each kernel in turn.
PLANES_CASES = [
    dict(N=2, Cin=64, Cout=32, K=16, L=1100, stride=8, padding=4, output_padding=0, groups=1, dilation=1, bias=False),
    dict(N=2, Cin=96, Cout=48, K=10, L=900, stride=5, padding=3, output_padding=1, groups=2, dilation=1, bias=False),
    dict(N=3, Cin=64, Cout=64, K=5, L=1000, stride=3, padding=4, output_padding=1, groups=1, dilation=2, bias=False),
]


@pytest.mark.parametrize("pick", [None, "planes", "tc", "direct"])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(PLANES_CASES)))
def test_cuda_grad_input_strided_kernels(ci, mode, tol, pick, monkeypatch):
    c = PLANES_CASES[ci]
    if pick is None:
        monkeypatch.delenv("CONVT1D_BWD_INPUT", raising=False)
    else:
        monkeypatch.setenv("CONVT1D_BWD_INPUT", pick)
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16}.get(mode, torch.float32)
    x, w, _ = make_inputs(c, device="cuda")
    gy = torch.randn(ref(x, w, None, c).shape, dtype=torch.float64, device="cuda")
    xs = x.clone().requires_grad_()
    (theirs,) = torch.autograd.grad(F.conv_transpose1d(xs, w, **kwargs(c)), xs, gy)  # float64 reference
    old = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = mode == "tf32"
    try:
        gx, _, _ = torch.ops.convt1d.conv_transpose1d_backward(
            gy.to(dtype), x.to(dtype), w.to(dtype), c["stride"], c["padding"], c["output_padding"], c["groups"],
            c["dilation"], [True, False, False])
    finally:
        torch.backends.cudnn.allow_tf32 = old
    assert gx.dtype == dtype and gx.shape == theirs.shape
    # f16/bf16: the inputs are rounded too, so compare with the float64 gradient of the rounded inputs
    if dtype != torch.float32:
        xs = x.to(dtype).double().requires_grad_()
        (theirs,) = torch.autograd.grad(F.conv_transpose1d(xs, w.to(dtype).double(), **kwargs(c)), xs,
                                        gy.to(dtype).double())
    assert rel_err(gx, theirs) <= tol


def test_cuda_gradcheck_gradgradcheck():
    c = dict(N=2, Cin=4, Cout=6, K=3, L=5, stride=2, padding=1, output_padding=1, groups=2,
             dilation=2, bias=True)
    x, w, b = make_inputs(c, device="cuda")
    ins = [t.requires_grad_() for t in (x, w, b)]
    f = lambda x, w, b: convt1d.conv_transpose1d(x, w, b, **kwargs(c))
    assert torch.autograd.gradcheck(f, ins)
    assert torch.autograd.gradgradcheck(f, ins)


@pytest.mark.filterwarnings("error:There is a performance drop")
@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-12), (torch.float32, 1e-5)])
def test_cuda_torch_func_vmap_rules(dtype, tol):
    """torch.func on CUDA through the ops' vmap rules: per-sample weights (the vmapped dimension folded into groups) and
    per-sample gradients (grad_weight per sample from one grouped backward call), against PyTorch in float64."""
    torch.backends.cudnn.allow_tf32 = False
    c = dict(N=3, Cin=8, Cout=6, K=3, L=40, stride=2, padding=1, output_padding=1, groups=2, dilation=2, bias=True)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda")
    kw = kwargs(c)
    ws, bs = torch.stack([w, -w, 0.5 * w]), torch.stack([b, 2 * b, -b])
    got = torch.func.vmap(lambda w, b: convt1d.conv_transpose1d(x, w, b, **kw))(ws, bs)
    want = torch.func.vmap(lambda w, b: F.conv_transpose1d(x.double(), w, b, **kw))(ws.double(), bs.double())
    assert rel_err(got, want) <= tol
    gy = torch.randn(c["N"], c["Cout"], out_len(c), device="cuda", dtype=dtype)

    def per_sample(conv, x, gy, w, b):
        loss = lambda xi, gi, w, b: (conv(xi[None], w, b, **kw) * gi[None]).sum()  # noqa: E731
        return torch.func.vmap(torch.func.grad(loss, argnums=(2, 3)), in_dims=(0, 0, None, None))(x, gy, w, b)
    got = per_sample(convt1d.conv_transpose1d, x, gy, w, b)
    want = per_sample(F.conv_transpose1d, x.double(), gy.double(), w.double(), b.double())
    for a, e in zip(got, want):
        assert a.shape == e.shape and rel_err(a, e) <= tol
    torch.backends.cudnn.allow_tf32 = True


@pytest.mark.parametrize("path", ["cpp", "python"])
def test_cuda_eager_op_backward_mask(path, monkeypatch):
    # Both eager paths (the C++ op of src/torch, the Python autograd.Function): a backward launches kernels for the
    # gradients asked for only, on the caller's (side) stream, and they match PyTorch; a graph-building backward
    # (create_graph) goes through the backward op and still differentiates.
    from convt1d import _ops, functional
    if path == "python":
        monkeypatch.setattr(functional, "_eager_op", None)
    elif not _ops.eager_op_cuda:
        pytest.skip("the C++ eager op is not built with CUDA for this torch")
    c = dict(N=2, Cin=16, Cout=8, K=3, L=64, stride=2, padding=1, output_padding=1, groups=1, dilation=1, bias=True)
    x, w, b = make_inputs(c, device="cuda")
    kernel_of = {0: "bwd_input", 1: "bww_", 2: "bias_kernel"}
    s = torch.cuda.Stream()
    for needs in ((True, False, False), (False, True, False), (False, False, True), (True, True, True)):
        ins = [t.clone().requires_grad_(n) for t, n in zip((x, w, b), needs)]
        with torch.cuda.stream(s):
            y = convt1d.conv_transpose1d(*ins, **kwargs(c))
            assert ("CppFunction" in type(y.grad_fn).__name__) == (path == "cpp")
            gy = torch.randn_like(y)
            names = kernels_run(lambda: y.backward(gy))
        for i, n in enumerate(needs):
            assert any(kernel_of[i] in k for k in names) == n, (needs, names)
        refs = [t.detach().clone().requires_grad_(n) for t, n in zip((x, w, b), needs)]
        F.conv_transpose1d(*refs, **kwargs(c)).backward(gy)
        for t, r, n in zip(ins, refs, needs):
            assert (t.grad is not None) == n
            if n:
                assert rel_err(t.grad, r.grad) <= 5e-3
    xs, ws = (t.double().requires_grad_() for t in (x, w))
    y = convt1d.conv_transpose1d(xs, ws, None, **kwargs(c))
    gx, = torch.autograd.grad(y, xs, torch.ones_like(y), create_graph=True)
    gw2, = torch.autograd.grad(gx.square().sum(), ws)
    xr, wr = (t.detach().requires_grad_() for t in (xs, ws))
    gxr, = torch.autograd.grad(F.conv_transpose1d(xr, wr, None, **kwargs(c)), xr, torch.ones_like(y), create_graph=True)
    gwr, = torch.autograd.grad(gxr.square().sum(), wr)
    assert rel_err(gw2, gwr) <= 1e-10


def test_cuda_backward_deterministic_bitwise():
    c = dict(N=8, Cin=64, Cout=64, K=4, L=4096, stride=2, padding=1, output_padding=0, groups=1,
             dilation=1, bias=True)
    for dtype in (torch.float32, torch.float16, torch.bfloat16, torch.float64):
        x, w, b = make_inputs(c, dtype=dtype, device="cuda")
        lout = convt1d.output_length(c["L"], c["K"], c["stride"], c["padding"], 0, c["dilation"])
        gy = torch.randn(c["N"], c["Cout"], lout, device="cuda").to(dtype)
        first = None
        for _ in range(10):
            out = torch.ops.convt1d.conv_transpose1d_backward(gy, x, w, 2, 1, 0, 1, 1, [True, True, True])
            if first is None:
                first = [t.clone() for t in out]
            else:
                for a, b2 in zip(first, out):
                    assert torch.equal(a, b2), dtype


# Shapes whose gradients take different kernels (direct / tiny, register-A and wgmma grad_w, strided and
# phase-plane grad_input, grouped): the one-call backward must give the three entry points' bits.
ONE_CALL_SHAPES = [
    dict(N=4, Cin=16, Cout=8, K=3, L=64, stride=1, padding=0, output_padding=0, groups=1, dilation=1),
    dict(N=4, Cin=64, Cout=64, K=4, L=8192, stride=2, padding=1, output_padding=0, groups=1, dilation=1),
    dict(N=2, Cin=256, Cout=128, K=16, L=1024, stride=8, padding=4, output_padding=0, groups=1, dilation=1),
    dict(N=2, Cin=32, Cout=64, K=3, L=8191, stride=2, padding=1, output_padding=0, groups=1, dilation=2),
    dict(N=2, Cin=64, Cout=64, K=4, L=2048, stride=2, padding=1, output_padding=1, groups=4, dilation=1),
]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("ci", range(len(ONE_CALL_SHAPES)))
def test_cuda_one_call_backward_matches_three_calls(ci, dtype):
    from convt1d import _lib, _ops
    c = dict(ONE_CALL_SHAPES[ci], bias=True)
    x, w, _ = make_inputs(c, dtype=dtype, device="cuda")
    lout = convt1d.output_length(c["L"], c["K"], c["stride"], c["padding"], c["output_padding"],
                                 c["dilation"], c["Cin"], c["Cout"], c["groups"])
    gy = torch.randn(c["N"], c["Cout"], lout, device="cuda").to(dtype)
    conv = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    p, _ = _lib.params((c["N"], c["Cin"], c["Cout"], c["L"], c["K"], c["stride"], c["padding"],
                        c["output_padding"], c["dilation"], c["groups"]))
    dt, m, s = _ops.DTYPES[dtype], _ops._math(), torch.cuda.current_stream().cuda_stream
    gx, gw = torch.full_like(x, float("nan")), torch.full_like(w, float("nan"))
    gb = torch.full((c["Cout"],), float("nan"), device="cuda", dtype=dtype)
    ws = torch.empty(max(_lib.workspace_size(p, dt), 1), dtype=torch.uint8, device="cuda")
    L = _lib.lib
    _lib.check(L.convt1d_backward_input_cuda(p, dt, m, gy.data_ptr(), w.data_ptr(), gx.data_ptr(), s))
    _lib.check(L.convt1d_backward_weight_cuda(p, dt, m, gy.data_ptr(), x.data_ptr(), gw.data_ptr(),
                                              ws.data_ptr(), ws.numel(), s))
    _lib.check(L.convt1d_backward_bias_cuda(p, dt, gy.data_ptr(), gb.data_ptr(), s))
    for mask in ([True, True, True], [False, True, False], [True, False, False], [False, False, True]):
        out = _ops._backward(gy, x, w, conv, mask)
        for got, want, asked in zip(out, (gx, gw, gb), mask):
            assert (got is not None) == asked
            if asked:
                assert torch.equal(got, want), (mask, c)
    assert not any(t.isnan().any() for t in (gx, gw, gb))


def test_cuda_graph_capture_and_replay():
    c = dict(N=4, Cin=16, Cout=24, K=4, L=256, stride=2, padding=1, output_padding=0, groups=2,
             dilation=1, bias=True)
    x, w, b = make_inputs(c, dtype=torch.float32, device="cuda")
    gy = torch.randn(4, 24, 512, device="cuda")
    static_x, static_gy = x.clone(), gy.clone()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm-up on a side stream, as torch.cuda.graphs asks
        for _ in range(3):
            convt1d.conv_transpose1d(static_x, w, b, **kwargs(c))
            torch.ops.convt1d.conv_transpose1d_backward(static_gy, static_x, w, 2, 1, 0, 2, 1, [True, True, True])
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = convt1d.conv_transpose1d(static_x, w, b, **kwargs(c))
        gx, gw, gb = torch.ops.convt1d.conv_transpose1d_backward(static_gy, static_x, w, 2, 1, 0, 2, 1,
                                                                 [True, True, True])
    for _ in range(3):
        nx, ngy = torch.randn_like(x), torch.randn_like(gy)
        static_x.copy_(nx)
        static_gy.copy_(ngy)
        graph.replay()
        torch.cuda.synchronize()
        assert torch.allclose(y, F.conv_transpose1d(nx, w, b, **kwargs(c)), rtol=1e-2, atol=1e-2)
        gx_r, gw_r, gb_r = torch.ops.aten.convolution_backward(
            ngy, nx, w, [24], [2], [1], [1], True, [0], 2, [True, True, True])
        assert rel_err(gx, gx_r) <= 1e-2 and rel_err(gw, gw_r) <= 1e-2 and rel_err(gb, gb_r) <= 1e-5


def test_cuda_module_graph_training_step():
    m = convt1d.ConvTranspose1d(8, 6, 4, stride=2, padding=1, device="cuda")
    x = torch.randn(2, 8, 64, device="cuda")
    gm = torch.cuda.make_graphed_callables(m, (x.clone().requires_grad_(),))
    y = gm(x.clone().requires_grad_())
    y.sum().backward()
    assert m.weight.grad is not None and torch.isfinite(m.weight.grad).all()


def test_cuda_side_stream_and_non_default_device_current():
    x, w = torch.randn(2, 8, 100, device="cuda"), torch.randn(8, 4, 3, device="cuda")
    expect = convt1d.conv_transpose1d(x, w)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = convt1d.conv_transpose1d(x, w)
    torch.cuda.current_stream().wait_stream(s)
    assert torch.equal(y, expect)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
def test_cuda_second_device(strict_fp32):
    x, w = torch.randn(2, 8, 100, device="cuda:1"), torch.randn(8, 4, 3, device="cuda:1")
    with torch.cuda.device(0):
        y = convt1d.conv_transpose1d(x, w)
    assert y.device == x.device
    assert rel_err(y, F.conv_transpose1d(x.cpu().double(), w.cpu().double())) <= 1e-5


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two GPUs")
@pytest.mark.parametrize("dtype,tol", [(torch.bfloat16, 1e-2), (torch.float32, 5e-3)])
def test_cuda_second_device_tensor_cores(dtype, tol):
    """The tensor-core paths on each device in turn, the first one first: per-device launch set-up (the wgmma kernels'
    shared-memory opt-in is a property of the device's context), and the weight cache on the second device."""
    c = dict(N=2, Cin=256, Cout=128, K=16, L=512, stride=8, padding=4, output_padding=0, groups=1, dilation=1,
             bias=True)
    for dev in ("cuda:0", "cuda:1"):
        x, w, b = (t.to(dtype) for t in make_inputs(c, device=dev))
        y = convt1d.conv_transpose1d(x, w, b, **kwargs(c))
        assert y.device == x.device and rel_err(y, ref(x, w, b, c)) <= tol
        m = convt1d.ConvTranspose1d(256, 128, 16, stride=8, padding=4, device=dev, dtype=dtype).cache_packed_weights()
        with torch.no_grad():
            m.weight.copy_(w)
            m.bias.copy_(b)
            assert torch.equal(m(x), y) and torch.equal(m(x), y)


def test_cuda_non_contiguous_and_unbatched():
    x = torch.randn(40, 6, 3, device="cuda", dtype=torch.float64).permute(2, 1, 0)
    w = torch.randn(6, 4, 5, device="cuda", dtype=torch.float64)
    y = convt1d.conv_transpose1d(x, w, stride=2, groups=2)
    assert rel_err(y, F.conv_transpose1d(x.cpu(), w.cpu(), stride=2, groups=2)) <= 1e-12
    assert rel_err(convt1d.conv_transpose1d(x[0], w, groups=2), F.conv_transpose1d(x[0].cpu(), w.cpu(), groups=2)) <= 1e-12


def test_cuda_empty_batch():
    x, w = torch.randn(0, 4, 10, device="cuda"), torch.randn(4, 3, 3, device="cuda", requires_grad=True)
    b = torch.randn(3, device="cuda", requires_grad=True)
    y = convt1d.conv_transpose1d(x, w, b)
    assert y.shape == (0, 3, 12)
    y.sum().backward()
    assert torch.equal(w.grad, torch.zeros_like(w)) and torch.equal(b.grad, torch.zeros_like(b))


def test_cuda_compile_fullgraph_forward_and_training():
    torch._dynamo.reset()
    m = convt1d.ConvTranspose1d(8, 6, 4, stride=2, padding=1, device="cuda")
    r = torch.nn.ConvTranspose1d(8, 6, 4, stride=2, padding=1, device="cuda")
    r.load_state_dict(m.state_dict())
    cm = torch.compile(m, fullgraph=True)
    x = torch.randn(2, 8, 64, device="cuda")
    with torch.no_grad():
        assert rel_err(cm(x), r(x)) <= 5e-3
    loss = cm(x).square().mean()
    loss.backward()
    r(x).square().mean().backward()
    assert rel_err(m.weight.grad, r.weight.grad) <= 5e-3


def test_cuda_autocast_like_pytorch():
    x, w, b = torch.randn(2, 8, 50, device="cuda"), torch.randn(8, 4, 3, device="cuda"), torch.randn(4, device="cuda")
    for dtype in (torch.float16, torch.bfloat16):
        with torch.autocast("cuda", dtype=dtype):
            ours = convt1d.conv_transpose1d(x, w, b, stride=2)
            theirs = F.conv_transpose1d(x, w, b, stride=2)
        assert ours.dtype == theirs.dtype == dtype
        assert rel_err(ours, theirs) <= 1e-2
    torch._dynamo.reset()
    fn = torch.compile(lambda x: convt1d.conv_transpose1d(x, w, b, stride=2), fullgraph=True)
    with torch.autocast("cuda", dtype=torch.float16):
        assert fn(x).dtype == torch.float16


def test_cuda_tf32_flag_read_at_every_call():
    # Large reduction: TF32 and strict results must differ, and follow the flag call by call.
    x, w = torch.randn(1, 2048, 64, device="cuda"), torch.randn(2048, 16, 1, device="cuda")
    r = F.conv_transpose1d(x.double(), w.double())
    old = torch.backends.cudnn.allow_tf32
    try:
        torch.backends.cudnn.allow_tf32 = False
        strict = rel_err(convt1d.conv_transpose1d(x, w), r)
        torch.backends.cudnn.allow_tf32 = True
        loose = rel_err(convt1d.conv_transpose1d(x, w), r)
    finally:
        torch.backends.cudnn.allow_tf32 = old
    assert strict <= 1e-5 and loose <= 5e-3


# Tiny float32 layers (under 2^24 multiply-adds) are computed fp32-accurate with TF32 allowed too (src/cuda/api.cu,
# tiny_fp32; conftest.py turns it off for the other tests): run 438's one-output layer of 476 terms, KernelBench 64 / 79's
# small sizes (TF32 2.9e-4 / 2.7e-4 in run 428, cuDNN 1.9e-7 / 3.3e-7), a grouped stride-2 layer; y and every gradient.
TINY = [
    dict(N=1, Cin=119, Cout=1, K=4, L=4, stride=1, padding=3, output_padding=0, groups=1, dilation=1, bias=True),
    dict(N=16, Cin=64, Cout=3, K=3, L=128, stride=1, padding=0, output_padding=0, groups=1, dilation=1, bias=False),
    dict(N=16, Cin=32, Cout=64, K=3, L=128, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=96, Cout=64, K=4, L=300, stride=2, padding=1, output_padding=1, groups=2, dilation=1, bias=True),
]


def _fwd_bwd(c, scaled=False):
    """y and every gradient of c in float32 on fresh inputs, beside the float64 reference's: their relative errors, y's
    against the size of its terms (|x| * |w| + |b|) where scaled."""
    x, w, b = make_inputs(c, device="cuda", gen=torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF))
    leaves = (x, w) + ((b,) if b is not None else ())
    ins = [t.float().requires_grad_() for t in leaves]
    refs = [t.clone().requires_grad_() for t in leaves]
    y = convt1d.conv_transpose1d(ins[0], ins[1], ins[2] if b is not None else None, **kwargs(c))
    r = F.conv_transpose1d(refs[0], refs[1], refs[2] if b is not None else None, **kwargs(c))
    gy = torch.randn_like(r)
    got = [y.detach()] + list(torch.autograd.grad(y, ins, gy.float()))
    want = [r.detach()] + list(torch.autograd.grad(r, refs, gy))
    if not scaled:
        return [rel_err(a, e) for a, e in zip(got, want)]
    mags = [t.abs() for t in leaves]
    scale = F.conv_transpose1d(mags[0], mags[1], mags[2] if b is not None else None, **kwargs(c)).max()
    return [((got[0].double() - want[0]).abs().max() / scale).item()] + [rel_err(a, e) for a, e in zip(got[1:], want[1:])]


@pytest.mark.parametrize("ci", range(len(TINY)))
def test_cuda_tiny_layers_fp32_accurate_with_tf32_allowed(ci, monkeypatch):
    monkeypatch.setattr(torch.backends.cudnn, "allow_tf32", True)
    monkeypatch.setenv("CONVT1D_TINY_FP32", "1")
    # y's error against the size of its terms: TINY[0]'s one output sums 476 terms that may cancel, and an fp32-accurate
    # sum is then relatively far off a result near zero (run 453: 2.0e-5 relative once); TF32's error is ~1e-4 of it
    errs = _fwd_bwd(TINY[ci], scaled=True)
    assert max(errs) <= 1e-5, errs


def test_cuda_tiny_rule_switch_and_threshold(monkeypatch):
    # With the rule off (CONVT1D_TINY_FP32=0) the tiny KernelBench 64 layer is TF32 again (the switch is read at every
    # call); a layer of exactly 2^24 multiply-adds (8 x 512 x 256 x 16, stride 8) is not tiny and stays TF32.
    monkeypatch.setattr(torch.backends.cudnn, "allow_tf32", True)
    monkeypatch.setenv("CONVT1D_TINY_FP32", "1")
    assert _fwd_bwd(TINY[1])[0] <= 1e-5
    monkeypatch.setenv("CONVT1D_TINY_FP32", "0")
    assert _fwd_bwd(TINY[1])[0] > 1e-5
    monkeypatch.setenv("CONVT1D_TINY_FP32", "1")
    big = dict(N=1, Cin=512, Cout=256, K=16, L=8, stride=8, padding=4, output_padding=0, groups=1, dilation=1, bias=True)
    assert 1e-5 < _fwd_bwd(big)[0] <= 5e-3


MODE_DTYPE = {"strict": torch.float32, "tf32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


# Layers whose taps all land on one phase of y (dilation a multiple of stride): the stride-1 forward of
# that phase plus one pass writing y (phase_scatter_kernel; the other phases hold the bias). As shipped
# in strict fp32 and 16-bit for outputs of 4M elements or more, forced (CONVT1D_FWD_PHASE=1) in every
# mode; a layer it declines must still be right.
# y's memory is poisoned first so that an unwritten element shows.
FWD_ONE_PHASE = [
    dict(N=2, Cin=32, Cout=64, K=3, L=4096, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=4, Cin=32, Cout=64, K=3, L=16384, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=True),
    dict(N=2, Cin=32, Cout=40, K=3, L=1000, stride=2, padding=0, output_padding=0, groups=1, dilation=4, bias=True),
    dict(N=3, Cin=48, Cout=32, K=4, L=700, stride=3, padding=2, output_padding=0, groups=1, dilation=3, bias=True),
    dict(N=2, Cin=64, Cout=64, K=3, L=999, stride=4, padding=5, output_padding=2, groups=2, dilation=8, bias=True),
    dict(N=3, Cin=64, Cout=40, K=5, L=513, stride=2, padding=3, output_padding=1, groups=1, dilation=2, bias=True),
]


@pytest.mark.parametrize("pick", ["forced", "shipped"])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(FWD_ONE_PHASE)))
def test_cuda_forward_one_phase(ci, mode, tol, pick, monkeypatch):
    from helpers import kwargs as kw
    c = FWD_ONE_PHASE[ci]
    torch.backends.cudnn.allow_tf32 = mode != "strict"
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_FWD_PHASE", "1")
    monkeypatch.setenv("CONVT1D_FWD_FUSED", "0")  # the fused kernel (tested below) would take most of these
    dtype = MODE_DTYPE[mode]
    x, w, b = make_inputs(c, device="cuda")
    xd, wd, bd = x.to(dtype), w.to(dtype), None if b is None else b.to(dtype)
    torch.full((c["N"] * c["Cout"] * 4 * c["L"] * c["stride"],), float("nan"), device="cuda", dtype=dtype)
    out = {}
    names = kernels_run(lambda: out.setdefault("y", convt1d.conv_transpose1d(xd, wd, bd, **kw(c))))
    y = out["y"]
    s, p, d = c["stride"], c["padding"], c["dilation"]
    lout = y.shape[-1]
    cc = 0 if p == 0 else -((p + s - 1) // s)
    r, m = -p - cc * s, d // s
    q = -(-(lout - r) // s)
    legal = 0 <= q - ((c["L"] - 1) + 2 * cc + m * (c["K"] - 1) + 1) < max(1, m)
    big = c["N"] * c["Cout"] * lout >= 1 << 22
    expected = legal and (pick == "forced" or (mode != "tf32" and big))
    assert any("phase_scatter_kernel" in n for n in names) == expected, names
    assert torch.isfinite(y).all()
    assert rel_err(y, ref(x, w, b, c)) <= tol


# The fused one-launch forward (fwd_phase_fused.cu) of narrow layers whose taps land on one phase of y:
# stride >= 2 with dilation a multiple of the stride (on by default), and stride 1 (forced only,
# CONVT1D_FWD_FUSED=1). Ragged channel counts, odd lengths (y rows not 16-byte aligned), a single input
# position, padding past the taps, output_padding, several tiles per block (the persistent loop), and
# layers it must decline (too many k-steps, groups). y's memory is poisoned first.
FWD_FUSED = [
    dict(N=2, Cin=32, Cout=64, K=3, L=4096, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=4, Cin=32, Cout=64, K=3, L=40000, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=True),
    dict(N=3, Cin=32, Cout=40, K=3, L=1000, stride=2, padding=0, output_padding=0, groups=1, dilation=4, bias=True),
    dict(N=3, Cin=12, Cout=3, K=3, L=776, stride=3, padding=2, output_padding=1, groups=1, dilation=3, bias=True),
    dict(N=2, Cin=16, Cout=24, K=3, L=1000, stride=4, padding=5, output_padding=2, groups=1, dilation=8, bias=True),
    dict(N=3, Cin=8, Cout=8, K=2, L=8, stride=2, padding=0, output_padding=0, groups=1, dilation=2, bias=True),
    dict(N=2, Cin=24, Cout=17, K=3, L=304, stride=2, padding=5, output_padding=1, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=96, Cout=64, K=1, L=504, stride=2, padding=0, output_padding=1, groups=1, dilation=2, bias=True),
    dict(N=3, Cin=48, Cout=32, K=4, L=704, stride=3, padding=2, output_padding=0, groups=1, dilation=3, bias=True),
    dict(N=2, Cin=32, Cout=64, K=5, L=3000, stride=1, padding=0, output_padding=0, groups=1, dilation=3, bias=False),
    dict(N=3, Cin=16, Cout=16, K=3, L=512, stride=1, padding=1, output_padding=0, groups=1, dilation=1, bias=True),
    dict(N=2, Cin=16, Cout=16, K=3, L=1001, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=True),
    dict(N=3, Cin=8, Cout=8, K=2, L=1, stride=2, padding=0, output_padding=0, groups=1, dilation=2, bias=True),
    dict(N=2, Cin=64, Cout=64, K=3, L=999, stride=4, padding=5, output_padding=2, groups=2, dilation=8, bias=True),
    dict(N=2, Cin=8, Cout=80, K=3, L=96, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=True),
    # L_out = 2049: one element past whole tiles, so most rows end inside the previous tile's columns up to its next
    # 128-byte boundary (the last tile sends nothing there)
    dict(N=3, Cin=32, Cout=64, K=3, L=1024, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=True),
]


def fused_expected(c, half, forced, strict=False):
    """The test's own statement of the fused kernel's rules: groups 1, C_out <= 64, taps on one phase
    (stride 1, or dilation a multiple of the stride), at most 12 k-steps of 8 (fp32) / 16 (16-bit) input
    channels x one tap (8 k-steps in 16-bit), tap spread (K-1)*m <= 32, input rows of whole 16-byte pieces (L a multiple of 4 /
    8), at most 512 16-bit window pieces; stride 1 and outputs under 4M elements only when forced."""
    s, d = c["stride"], c["dilation"]
    if c["groups"] != 1 or c["Cout"] > 64 or (s > 1 and d % s) or (s == 1 and not forced):
        return False
    if not forced and c["N"] * c["Cout"] * out_len(c) < 1 << 22:  # small outputs: latency-bound, not taken
        return False
    # Split TF32 at stride >= 2 on Hopper: the register-A one-phase forward comes first (session 21), where x's rows
    # are whole 16-byte pieces.
    if not forced and strict and s > 1 and torch.cuda.get_device_capability()[0] == 9 and c["L"] % 4 == 0:
        return False
    m = d if s == 1 else d // s
    cb = -(-c["Cin"] // (16 if half else 8))
    xv = 8 if half else 4
    if cb * c["K"] > (8 if half else 12) or (c["K"] - 1) * m > 32 or c["L"] % xv:
        return False
    return not half or cb * 8 * ((128 + (c["K"] - 1) * m + 2 * xv - 2) // xv) <= 512


def fused_forward_run(c, mode):
    """One forward of layer c in a precision mode on fresh inputs (memory poisoned with NaN first): the kernels that ran,
    y, and its relative error against float64."""
    torch.backends.cudnn.allow_tf32 = mode != "strict"
    dtype = MODE_DTYPE[mode]
    x, w, b = make_inputs(c, device="cuda")
    xd, wd, bd = x.to(dtype), w.to(dtype), None if b is None else b.to(dtype)
    torch.full((c["N"] * c["Cout"] * (c["L"] * c["stride"] + 64),), float("nan"), device="cuda", dtype=dtype)
    out = {}
    names = kernels_run(lambda: out.setdefault("y", convt1d.conv_transpose1d(xd, wd, bd, **kwargs(c))))
    return names, out["y"], rel_err(out["y"], ref(x, w, b, c))


@pytest.mark.parametrize("pick", ["forced", "shipped"])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(FWD_FUSED)))
def test_cuda_forward_fused(ci, mode, tol, pick, monkeypatch):
    c = FWD_FUSED[ci]
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_FWD_FUSED", "1")
    names, y, err = fused_forward_run(c, mode)
    expected = fused_expected(c, mode in ("f16", "bf16"), pick == "forced", mode == "strict")
    assert any("fwd_phase_fused_kernel" in n for n in names) == expected, names
    assert torch.isfinite(y).all()
    assert err <= tol


def fused_bt256_fits(c, half):
    """Whether the fused forward's 256-position tile (one block per SM) fits in shared memory: the window (fp32: two
    buffers) of C_in rounded to 8 word rows, plus the output tile of 64 rows of at least s*256 + 2 vectors."""
    m = c["dilation"] if c["stride"] == 1 else c["dilation"] // c["stride"]
    xv, es = (8, 2) if half else (4, 4)
    rows = -(-c["Cin"] // (16 if half else 8)) * 8
    nvr = (256 + (c["K"] - 1) * m + 2 * xv - 2) // xv
    xp = (nvr * xv - 8 + 31) // 32 * 32 + 8
    smem = (1 if half else 2) * rows * xp * 4 + 64 * (c["stride"] * 256 + 2 * xv) * es
    return smem <= torch.cuda.get_device_properties(0).shared_memory_per_block_optin and (not half or rows * nvr <= 1024)


# The fused forward's two tiles (Session 22), each forced (CONVT1D_FUSED_BT) on every layer it takes: 256 phase
# positions where that tile fits in shared memory (128 otherwise), 128 everywhere; the kernel's instantiation named;
# rows sent between 128-byte boundaries where that fits (CONVT1D_FUSED_LINE=1; the default in TF32) and as each tile's
# span (=0).
@pytest.mark.parametrize("line", ["on", "off"])
@pytest.mark.parametrize("bt", [128, 256])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(FWD_FUSED)))
def test_cuda_forward_fused_tile(ci, mode, tol, bt, line, monkeypatch):
    c = FWD_FUSED[ci]
    half = mode in ("f16", "bf16")
    if not fused_expected(c, half, True):
        pytest.skip("the fused kernel declines this layer")
    monkeypatch.setenv("CONVT1D_FWD_FUSED", "1")
    monkeypatch.setenv("CONVT1D_FUSED_BT", str(bt))
    monkeypatch.setenv("CONVT1D_FUSED_LINE", "1" if line == "on" else "0")
    names, y, err = fused_forward_run(c, mode)
    got = [n for n in names if "fwd_phase_fused_kernel" in n]
    want = 256 if bt == 256 and fused_bt256_fits(c, half) else 128
    assert len(got) == 1 and f", {want}>" in got[0], names
    assert torch.isfinite(y).all()
    assert err <= tol


# grad_input of the same narrow one-phase layers (bwd_input_phase_fused.cu): on by default at stride >= 2 and for
# stride 1 under 1M grad_input elements (Session 15), forced (CONVT1D_BWD_INPUT_FUSED=1) in every mode; grad_x poisoned first;
# against float64 autograd of PyTorch's conv_transpose1d.
BWD_INPUT_FUSED = [
    dict(N=2, Cin=32, Cout=64, K=3, L=4096, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=40, Cin=32, Cout=64, K=3, L=4000, stride=2, padding=1, output_padding=1, groups=1, dilation=2, bias=False),
    dict(N=3, Cin=20, Cout=40, K=3, L=1001, stride=2, padding=0, output_padding=0, groups=1, dilation=4, bias=False),
    dict(N=3, Cin=12, Cout=3, K=3, L=777, stride=3, padding=2, output_padding=1, groups=1, dilation=3, bias=False),
    dict(N=2, Cin=16, Cout=24, K=3, L=999, stride=4, padding=5, output_padding=2, groups=1, dilation=8, bias=False),
    dict(N=3, Cin=8, Cout=8, K=2, L=1, stride=2, padding=0, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=24, Cout=17, K=3, L=300, stride=2, padding=5, output_padding=1, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=32, Cout=100, K=2, L=500, stride=2, padding=0, output_padding=1, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=32, Cout=64, K=5, L=3000, stride=1, padding=0, output_padding=0, groups=1, dilation=3, bias=False),
    dict(N=2, Cin=16, Cout=16, K=3, L=513, stride=1, padding=1, output_padding=0, groups=1, dilation=1, bias=False),
    dict(N=2, Cin=48, Cout=32, K=3, L=200, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=64, Cout=64, K=3, L=999, stride=4, padding=5, output_padding=2, groups=2, dilation=8, bias=False),
]


def fused_grad_expected(c, forced, k_max=None, row_elems=1, small_stride1=False):
    """The test's own statement of the fused gradient kernels' rules: groups 1, C_in <= 32, C_out <= 64, taps on
    one phase (stride 1, or dilation a multiple of the stride), tap spread (K-1)*m <= 32; grad_weight also K <= 4
    (k_max) and x rows of whole 16-byte pieces (L a multiple of row_elems); every size at stride >= 2; stride 1 only
    when forced, or for grad_input (small_stride1) under 1M input elements."""
    s, d = c["stride"], c["dilation"]
    if c["groups"] != 1 or c["Cin"] > 32 or c["Cout"] > 64 or (s > 1 and d % s):
        return False
    if (k_max is not None and c["K"] > k_max) or c["L"] % row_elems:
        return False
    if not forced and s == 1 and not (small_stride1 and c["N"] * c["Cin"] * c["L"] < 1 << 20):
        return False
    m = d if s == 1 else d // s
    return (c["K"] - 1) * m <= 32


@pytest.mark.parametrize("pick", ["forced", "shipped"])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(BWD_INPUT_FUSED)))
def test_cuda_bwd_input_fused(ci, mode, tol, pick, monkeypatch):
    c = BWD_INPUT_FUSED[ci]
    torch.backends.cudnn.allow_tf32 = mode != "strict"
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_BWD_INPUT_FUSED", "1")
    dtype = MODE_DTYPE[mode]
    x, w, _ = make_inputs(c, device="cuda")
    gy = torch.randn(c["N"], c["Cout"], out_len(c), device="cuda", dtype=torch.float64)
    xr = x.clone().requires_grad_(True)
    F.conv_transpose1d(xr, w, None, **kwargs(c)).backward(gy)
    torch.full((c["N"] * c["Cin"] * c["L"] + 64,), float("nan"), device="cuda", dtype=dtype)
    args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    out = {}
    names = kernels_run(lambda: out.setdefault("gx", torch.ops.convt1d.conv_transpose1d_backward(
        gy.to(dtype), x.to(dtype), w.to(dtype), *args, [True, False, False])[0]))
    gx = out["gx"]
    expected = fused_grad_expected(c, pick == "forced", small_stride1=True)
    assert any("bwd_input_phase_fused_kernel" in n for n in names) == expected, names
    assert torch.isfinite(gx).all()
    assert rel_err(gx, xr.grad) <= tol


# grad_weight of the same narrow one-phase layers (bwd_weight_phase_fused.cu): on by default at stride >= 2 (every
# size since Session 15), forced (CONVT1D_BWD_WEIGHT_FUSED=1) in every mode; against float64 autograd on the
# same (quantized) inputs; bitwise repeatable (a fixed-order reduction of the blocks' partials).
BWD_WEIGHT_FUSED = [
    dict(N=2, Cin=32, Cout=64, K=3, L=4096, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=40, Cin=32, Cout=64, K=3, L=4000, stride=2, padding=1, output_padding=1, groups=1, dilation=2, bias=False),
    dict(N=3, Cin=20, Cout=40, K=3, L=1000, stride=2, padding=0, output_padding=0, groups=1, dilation=4, bias=False),
    dict(N=3, Cin=12, Cout=3, K=3, L=776, stride=3, padding=2, output_padding=1, groups=1, dilation=3, bias=False),
    dict(N=2, Cin=16, Cout=24, K=4, L=1000, stride=4, padding=5, output_padding=2, groups=1, dilation=8, bias=False),
    dict(N=3, Cin=8, Cout=8, K=2, L=8, stride=2, padding=0, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=24, Cout=17, K=3, L=304, stride=2, padding=5, output_padding=1, groups=1, dilation=2, bias=False),
    dict(N=1, Cin=32, Cout=64, K=4, L=2048, stride=2, padding=3, output_padding=0, groups=1, dilation=20, bias=False),
    dict(N=2, Cin=1, Cout=1, K=1, L=64, stride=2, padding=0, output_padding=1, groups=1, dilation=2, bias=True),
    dict(N=2, Cin=16, Cout=16, K=3, L=512, stride=1, padding=1, output_padding=0, groups=1, dilation=1, bias=False),
    dict(N=2, Cin=32, Cout=100, K=2, L=504, stride=2, padding=0, output_padding=1, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=32, Cout=64, K=5, L=3000, stride=1, padding=0, output_padding=0, groups=1, dilation=3, bias=False),
    dict(N=2, Cin=48, Cout=32, K=3, L=200, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=2, Cin=16, Cout=32, K=3, L=1001, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=False),
    dict(N=1, Cin=32, Cout=64, K=3, L=2048, stride=2, padding=3, output_padding=0, groups=1, dilation=34, bias=False),
]


@pytest.mark.parametrize("pick", ["forced", "shipped"])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(BWD_WEIGHT_FUSED)))
def test_cuda_bwd_weight_fused(ci, mode, tol, pick, monkeypatch):
    c = BWD_WEIGHT_FUSED[ci]
    torch.backends.cudnn.allow_tf32 = mode != "strict"
    # Layer 8 (C_in = groups = 1) is depthwise: the depthwise grad_weight kernel takes it first since session 17
    # (its own tests cover it); here the fused kernel's rule is under test, so the depthwise kernels are off.
    monkeypatch.setenv("CONVT1D_DW", "0")
    if pick == "forced":
        monkeypatch.setenv("CONVT1D_BWD_WEIGHT_FUSED", "1")
    dtype = MODE_DTYPE[mode]
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, _ = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    gy = torch.randn(c["N"], c["Cout"], out_len(c), generator=gen, dtype=torch.float64).to("cuda", dtype)
    w64 = w.double().requires_grad_(True)
    F.conv_transpose1d(x.double(), w64, None, **kwargs(c)).backward(gy.double())
    args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])

    def run():
        torch.full((w.numel() + 64,), float("nan"), device="cuda", dtype=dtype)  # poison grad_w's block
        return torch.ops.convt1d.conv_transpose1d_backward(gy, x, w, *args, [False, True, False])[1]

    out = {}
    names = kernels_run(lambda: out.setdefault("gw", run()))
    gw = out["gw"]
    expected = fused_grad_expected(c, pick == "forced", k_max=4, row_elems=8 if mode in ("f16", "bf16") else 4)
    assert any("bwd_weight_phase_fused_kernel" in n for n in names) == expected, names
    assert torch.isfinite(gw).all()
    # Relative to the larger of the result and its typical size, the reduction of |x|, |gy| over sqrt(terms): a
    # one-element gradient (C_in = C_out = K = 1) can cancel to near zero (run 157, TF32: 0.0031 from 128 products of
    # size ~1, where TF32's rounding alone moves the sum by ~1e-3 per product).
    wa = w.double().abs().requires_grad_(True)
    F.conv_transpose1d(x.double().abs(), wa, None, **kwargs(c)).backward(gy.double().abs())
    typical = wa.grad.abs().max().item() / (c["N"] * c["L"]) ** 0.5
    err = (gw.double() - w64.grad).abs().max().item()
    assert err <= tol * max(w64.grad.abs().max().item(), typical)
    assert torch.equal(run(), gw)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_cuda_fused_one_phase_in_cuda_graph(dtype, monkeypatch):
    # The three fused kernels (forced) captured in one CUDA graph, replayed on new inputs: no sync, grad_w's scratch
    # from the graph's own stream-ordered allocation.
    monkeypatch.setenv("CONVT1D_FWD_FUSED", "1")
    monkeypatch.setenv("CONVT1D_BWD_INPUT_FUSED", "1")
    monkeypatch.setenv("CONVT1D_BWD_WEIGHT_FUSED", "1")
    torch.backends.cudnn.allow_tf32 = True
    c = dict(N=2, Cin=32, Cout=64, K=3, L=4096, stride=2, padding=1, output_padding=0, groups=1, dilation=2, bias=True)
    args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    x = torch.randn(c["N"], c["Cin"], c["L"], device="cuda", dtype=dtype)
    w = torch.randn(c["Cin"], c["Cout"], c["K"], device="cuda", dtype=dtype)
    b = torch.randn(c["Cout"], device="cuda", dtype=dtype)
    gy = torch.randn(c["N"], c["Cout"], 2 * c["L"] + 1, device="cuda", dtype=dtype)

    def step():
        y = convt1d.conv_transpose1d(x, w, b, *args)
        gx, gw, _ = torch.ops.convt1d.conv_transpose1d_backward(gy, x, w, *args, [True, True, False])
        return y, gx, gw

    g, (y, gx, gw) = captured(step)
    x.copy_(torch.randn_like(x))
    gy.copy_(torch.randn_like(gy))
    g.replay()
    torch.cuda.synchronize()
    xr = x.double().requires_grad_(True)
    wr = w.double().requires_grad_(True)
    yr = F.conv_transpose1d(xr, wr, b.double(), *args)
    yr.backward(gy.double())
    tol = 5e-3 if dtype == torch.float32 else 1e-2
    assert rel_err(y, yr) <= tol and rel_err(gx, xr.grad) <= tol and rel_err(gw, wr.grad) <= tol


# The depthwise forward (fwd_depthwise.cu, C_in/groups == 1): the unrolled tap counts (NT 1, 2, 3, 6 of its
# instantiations) with the lane's phase fixed (s divides 32) and moving (s = 3, 5, 7, 40), phases without taps
# (gcd(s, d) > 1, K < s), the runtime loop (uneven tap counts, NT 5), channel multipliers (C_out/groups > 1, C_in = 1),
# several tiles per row, odd lengths, padding past the taps, windows too long for the registers' prefetch (the last two
# taken layers), and strides it declines (> 64: the direct kernel).
# y's memory is poisoned first so that an unwritten element shows.
DEPTHWISE = [
    dict(N=2, Cin=16, Cout=16, K=4, L=1000, stride=2, padding=1, output_padding=1, groups=16, dilation=1, bias=True),
    dict(N=2, Cin=8, Cout=8, K=12, L=777, stride=2, padding=0, output_padding=0, groups=8, dilation=1, bias=False),
    dict(N=3, Cin=4, Cout=8, K=6, L=999, stride=3, padding=2, output_padding=1, groups=4, dilation=1, bias=True),
    dict(N=2, Cin=6, Cout=6, K=7, L=501, stride=5, padding=3, output_padding=2, groups=6, dilation=2, bias=True),
    dict(N=2, Cin=5, Cout=5, K=5, L=3001, stride=1, padding=4, output_padding=0, groups=5, dilation=3, bias=False),
    dict(N=2, Cin=4, Cout=4, K=6, L=700, stride=4, padding=1, output_padding=3, groups=4, dilation=2, bias=True),
    dict(N=2, Cin=8, Cout=8, K=16, L=300, stride=8, padding=4, output_padding=0, groups=8, dilation=1, bias=True),
    dict(N=2, Cin=3, Cout=9, K=3, L=5000, stride=1, padding=1, output_padding=0, groups=3, dilation=1, bias=True),
    dict(N=3, Cin=1, Cout=5, K=3, L=640, stride=2, padding=0, output_padding=1, groups=1, dilation=1, bias=True),
    dict(N=2, Cin=4, Cout=4, K=3, L=333, stride=7, padding=2, output_padding=5, groups=4, dilation=1, bias=False),
    dict(N=2, Cin=4, Cout=4, K=80, L=100, stride=40, padding=20, output_padding=0, groups=4, dilation=1, bias=True),
    dict(N=2, Cin=4, Cout=4, K=3, L=1, stride=2, padding=3, output_padding=1, groups=4, dilation=4, bias=True),
    dict(N=2, Cin=3, Cout=3, K=400, L=900, stride=1, padding=10, output_padding=0, groups=3, dilation=3, bias=True),
    dict(N=2, Cin=2, Cout=2, K=1000, L=3000, stride=3, padding=5, output_padding=1, groups=2, dilation=8, bias=False),
    dict(N=2, Cin=4, Cout=8, K=4, L=50, stride=65, padding=3, output_padding=0, groups=4, dilation=1, bias=True),
    # Added in session 17 (review of the depthwise kernels): one tap per phase (K < s, NT 1) and four (NT 4, strides 1
    # and 2); strides 16, 32 and 64 (the whole phase table); padding past the kernel span; gcd(s, d) > 1 with s not
    # dividing 32; a channel multiplier on the unrolled path; K 4 and 12 at stride 3 (grad_input's runtime stride).
    dict(N=2, Cin=4, Cout=4, K=3, L=900, stride=4, padding=1, output_padding=2, groups=4, dilation=1, bias=True),
    dict(N=2, Cin=4, Cout=4, K=4, L=4500, stride=1, padding=2, output_padding=0, groups=4, dilation=1, bias=False),
    dict(N=2, Cin=4, Cout=4, K=8, L=2100, stride=2, padding=3, output_padding=1, groups=4, dilation=1, bias=True),
    dict(N=2, Cin=4, Cout=8, K=64, L=150, stride=32, padding=16, output_padding=0, groups=4, dilation=1, bias=True),
    dict(N=2, Cin=3, Cout=3, K=128, L=70, stride=64, padding=32, output_padding=5, groups=3, dilation=1, bias=False),
    dict(N=2, Cin=4, Cout=4, K=32, L=300, stride=16, padding=8, output_padding=3, groups=4, dilation=1, bias=True),
    dict(N=2, Cin=4, Cout=4, K=3, L=100, stride=4, padding=5, output_padding=3, groups=4, dilation=1, bias=True),
    dict(N=2, Cin=4, Cout=4, K=5, L=800, stride=6, padding=2, output_padding=1, groups=4, dilation=4, bias=True),
    dict(N=2, Cin=4, Cout=12, K=6, L=1500, stride=4, padding=2, output_padding=1, groups=4, dilation=2, bias=True),
    dict(N=2, Cin=4, Cout=4, K=12, L=1200, stride=3, padding=4, output_padding=2, groups=4, dilation=1, bias=True),
    dict(N=2, Cin=4, Cout=8, K=4, L=1700, stride=3, padding=1, output_padding=0, groups=4, dilation=1, bias=False),
]


@pytest.mark.parametrize("mode,tol", [("f64", 1e-12), ("strict", 1e-5), ("tf32", 1e-5), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(DEPTHWISE)))
def test_cuda_forward_depthwise(ci, mode, tol):
    from helpers import kwargs as kw
    c = DEPTHWISE[ci]
    torch.backends.cudnn.allow_tf32 = mode != "strict"
    dtype = torch.float64 if mode == "f64" else MODE_DTYPE[mode]
    x, w, b = make_inputs(c, device="cuda", gen=torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF))
    xd, wd, bd = x.to(dtype), w.to(dtype), None if b is None else b.to(dtype)
    out = {}

    def run():
        junk = torch.full((c["N"], c["Cout"], out_len(c)), float("nan"), dtype=dtype, device="cuda")
        del junk  # the caching allocator hands this NaN block to y
        out["y"] = convt1d.conv_transpose1d(xd, wd, bd, **kw(c))

    names = kernels_run(run)
    y = out["y"]
    assert any("depthwise_fwd_kernel" in n for n in names) == (c["stride"] <= 64), names
    assert y.dtype == dtype and torch.isfinite(y).all()
    assert rel_err(y, ref(x, w, b, c)) <= tol


def _dw_grad_taken(c, es, with_x):
    # Whether the depthwise gradient kernels take layer c with es-byte elements: stride <= 64, and their shared memory
    # (two grad_y windows of 2047 s + (K - 1) d + 1 elements in whole 16-byte pieces from any offset; grad_weight: two
    # x tiles and the warps' tap sums; grad_input: the weights) within 100 KB and the device's opt-in limit (99 KB on
    # sm_86/89).
    v, acc = 16 // es, 8 if es == 8 else 4
    window = 2047 * c["stride"] + (c["K"] - 1) * c["dilation"] + 1
    pitch, xpitch = (window + 2 * v - 2) // v * v, (2048 + 2 * v - 2) // v * v
    if with_x:
        smem = 2 * (pitch + xpitch) * es + 8 * c["K"] * acc
    else:
        smem = 2 * pitch * es + c["Cout"] // c["groups"] * c["K"] * acc
    optin = getattr(torch.cuda.get_device_properties(0), "shared_memory_per_block_optin", 100 * 1024)
    return c["stride"] <= 64 and smem <= min(100 * 1024, optin)


def _dw_grad_operands(c, mode):
    # dtype, x, w (the layer's random inputs rounded to the mode's dtype) and a random grad_y for a DEPTHWISE layer.
    dtype = torch.float64 if mode == "f64" else MODE_DTYPE[mode]
    x, w, _ = make_inputs(c, device="cuda", gen=torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF))
    gy = torch.randn(c["N"], c["Cout"], out_len(c), dtype=torch.float64, device="cuda").to(dtype)
    return dtype, x.to(dtype), w.to(dtype), gy


@pytest.mark.parametrize("mode,tol", [("f64", 1e-12), ("strict", 1e-5), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(DEPTHWISE)))
def test_cuda_grad_input_depthwise(ci, mode, tol):
    # grad_input of the DEPTHWISE layers through the backward op: the depthwise grad_input kernel where it takes the
    # layer (stride <= 64, two grad_y windows of 2047 s + (K - 1) d + 1 elements and the weights within 100 KB), else the direct
    # kernel; grad_x's memory poisoned, against the float64 gradient of the same (rounded) inputs.
    c = DEPTHWISE[ci]
    dtype, x, w, gy = _dw_grad_operands(c, mode)
    xs = x.double().requires_grad_()
    (theirs,) = torch.autograd.grad(F.conv_transpose1d(xs, w.double(), **kwargs(c)), xs, gy.double())
    out = {}

    def run():
        junk = torch.full(x.shape, float("nan"), dtype=dtype, device="cuda")
        del junk  # the caching allocator hands this NaN block to grad_x
        out["gx"] = torch.ops.convt1d.conv_transpose1d_backward(
            gy, x, w, c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"], [True, False, False])[0]

    names = kernels_run(run)
    taken = _dw_grad_taken(c, x.element_size(), with_x=False)
    assert any("depthwise_bwd_input_kernel" in n for n in names) == taken, names
    gx = out["gx"]
    assert gx.dtype == dtype and torch.isfinite(gx).all()
    assert rel_err(gx, theirs) <= tol


@pytest.mark.parametrize("mode,tol", [("f64", 1e-12), ("strict", 1e-5), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(DEPTHWISE)))
def test_cuda_grad_weight_depthwise(ci, mode, tol):
    # grad_weight of the DEPTHWISE layers through the backward op: the depthwise grad_weight kernels (block partials, then
    # a fixed-order sum) where they take the layer (stride <= 64; two grad_y windows, two x tiles and the warps' sums
    # within 100 KB), else the others; grad_w's memory poisoned, bitwise equal on a second call, against float64.
    c = DEPTHWISE[ci]
    dtype, x, w, gy = _dw_grad_operands(c, mode)
    ws = w.double().requires_grad_()
    (theirs,) = torch.autograd.grad(F.conv_transpose1d(x.double(), ws, **kwargs(c)), ws, gy.double())
    args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"], [False, True, False])
    out = {}

    def run():
        junk = torch.full(w.shape, float("nan"), dtype=dtype, device="cuda")
        del junk  # the caching allocator hands this NaN block to grad_w
        out["gw"] = torch.ops.convt1d.conv_transpose1d_backward(gy, x, w, *args)[1]

    names = kernels_run(run)
    taken = _dw_grad_taken(c, x.element_size(), with_x=True)
    assert any("depthwise_bwd_weight_kernel" in n for n in names) == taken, names
    gw = out["gw"]
    assert gw.dtype == dtype and torch.isfinite(gw).all()
    assert rel_err(gw, theirs) <= tol
    assert torch.equal(torch.ops.convt1d.conv_transpose1d_backward(gy, x, w, *args)[1], gw)  # deterministic


def _depthwise_three(c, dtype, xd=None, gyd=None):
    """convt1d's forward, grad_input and grad_weight of layer c in dtype (each output's memory poisoned first), the
    float64 references of the same rounded inputs, and the kernels that ran. xd / gyd: the operands to pass (views
    of other memory, say); fresh random ones when None."""
    x, w, b = make_inputs(c, device="cuda", gen=torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF))
    if xd is None:
        xd = x.to(dtype)
    w, b = w.to(dtype), None if b is None else b.to(dtype)
    if gyd is None:
        gyd = torch.randn(c["N"], c["Cout"], out_len(c), dtype=torch.float64, device="cuda").to(dtype)
    args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    xs, ws = xd.double().requires_grad_(), w.double().requires_grad_()
    yr = F.conv_transpose1d(xs, ws, None if b is None else b.double(), *args)
    gxr, gwr = torch.autograd.grad(yr, (xs, ws), gyd.double())
    out = {}

    def run():
        for shape in ((c["N"], c["Cout"], out_len(c)), xd.shape, w.shape):
            junk = torch.full(shape, float("nan"), dtype=dtype, device="cuda")
            del junk  # the caching allocator hands these NaN blocks to the outputs
        out["y"] = convt1d.conv_transpose1d(xd, w, b, *args)
        out["gx"], out["gw"], _ = torch.ops.convt1d.conv_transpose1d_backward(gyd, xd, w, *args, [True, True, False])

    names = kernels_run(run)
    return (out["y"], out["gx"], out["gw"]), (yr.detach(), gxr, gwr), names


DW_TOL = {torch.float64: 1e-12, torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1e-2}


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.bfloat16], ids=["f64", "f32", "bf16"])
@pytest.mark.parametrize("tpb", [2, 3])
@pytest.mark.parametrize("ci", [0, 3, 4, 7, 10, 13, 17, 20, 21, 23])
def test_cuda_depthwise_tiles_per_block(ci, tpb, dtype, monkeypatch):
    # The three depthwise kernels with every block over a run of tiles (CONVT1D_DW_TPB): the forward's prefetch of the
    # next window into the other buffer, grad_input's and grad_weight's double buffers and grad_weight's sums across
    # tiles, and (tpb 3 over 4 tiles) a last block with fewer. The test layers are too small for the shipped split to
    # give a block more than one tile; here L = 12300 gives each row at least 4 forward (4096 outputs) and 7 backward
    # (2048 inputs) tiles.
    torch.backends.cudnn.allow_tf32 = False
    monkeypatch.setenv("CONVT1D_DW_TPB", str(tpb))
    c = dict(DEPTHWISE[ci], L=12300)
    ours, theirs, names = _depthwise_three(c, dtype)
    assert any("depthwise_fwd_kernel" in n for n in names), names
    for name, a, r in zip(("y", "grad_input", "grad_weight"), ours, theirs):
        assert a.dtype == dtype and torch.isfinite(a).all(), name
        assert rel_err(a, r) <= DW_TOL[dtype], name


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["f32", "f16"])
@pytest.mark.parametrize("ci", [0, 2, 7, 16])
def test_cuda_depthwise_unaligned_operands(ci, dtype):
    # x and grad_y one element past a 16-byte boundary (views into larger buffers): every window piece is staged
    # element by element instead of by cp.async; results against float64.
    torch.backends.cudnn.allow_tf32 = False
    c = DEPTHWISE[ci]
    nx, ny = c["N"] * c["Cin"] * c["L"], c["N"] * c["Cout"] * out_len(c)
    xd = torch.randn(nx + 1, device="cuda", dtype=torch.float64).to(dtype)[1:].view(c["N"], c["Cin"], c["L"])
    gyd = torch.randn(ny + 1, device="cuda", dtype=torch.float64).to(dtype)[1:].view(c["N"], c["Cout"], out_len(c))
    assert xd.data_ptr() % 16 and gyd.data_ptr() % 16
    ours, theirs, names = _depthwise_three(c, dtype, xd=xd, gyd=gyd)
    assert any("depthwise_fwd_kernel" in n for n in names), names
    for name, a, r in zip(("y", "grad_input", "grad_weight"), ours, theirs):
        assert torch.isfinite(a).all() and rel_err(a, r) <= DW_TOL[dtype], name


def test_cuda_depthwise_several_tiles_per_block_as_shipped():
    # A layer large enough for the shipped split to give blocks several tiles (4096 rows; 4 forward tiles per row,
    # 4 backward tiles), bf16, against float64.
    c = dict(N=4, Cin=1024, Cout=1024, K=4, L=8192, stride=2, padding=1, output_padding=1, groups=1024, dilation=1,
             bias=True)
    ours, theirs, names = _depthwise_three(c, torch.bfloat16)
    assert any("depthwise_fwd_kernel" in n for n in names) and any("depthwise_bwd_weight_kernel" in n for n in names)
    for name, a, r in zip(("y", "grad_input", "grad_weight"), ours, theirs):
        assert torch.isfinite(a).all() and rel_err(a, r) <= 1e-2, name


@pytest.mark.parametrize("rowvec", ["shipped", "off"])
@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-12), (torch.float32, 1e-5), (torch.float16, 1e-3),
                                       (torch.bfloat16, 4e-3)], ids=["f64", "f32", "f16", "bf16"])
@pytest.mark.parametrize("N,C,L,offset", [(2, 3, 32769, 0), (4, 5, 9001, 1), (3, 2, 4099, 3), (1, 700, 8195, 0),
                                          (2, 4, 70001, 5), (2, 3, 32768, 1), (5, 3, 1027, 0)])
def test_cuda_grad_bias_rows(N, C, L, offset, dtype, tol, rowvec, monkeypatch):
    # grad_bias (bwd_direct.cu's bias kernel) on rows that are not 16-byte aligned: odd lengths, and grad_y starting
    # `offset` elements into its buffer; long rows take 128-bit loads between per-row heads and tails (shipped), or
    # one load per element (CONVT1D_BIAS_ROWVEC=0); one and several splits per channel. grad_b poisoned, against the
    # float64 sum, bitwise equal on a second call.
    if rowvec == "off":
        monkeypatch.setenv("CONVT1D_BIAS_ROWVEC", "0")
    from convt1d import _ops
    c = dict(N=N, Cin=C, Cout=C, K=1, L=L, stride=1, padding=0, output_padding=0, groups=1, dilation=1, bias=True)
    x, w, _ = make_inputs(c, dtype=dtype, device="cuda")
    gy = torch.randn(N * C * L + offset, dtype=torch.float64, device="cuda").to(dtype)[offset:].view(N, C, L)
    junk = torch.full((C,), float("nan"), dtype=dtype, device="cuda")
    del junk  # the caching allocator hands this NaN block to grad_b
    gb = _ops._backward(gy, x, w, (1, 0, 0, 1, 1), [False, False, True])[2]
    want = gy.double().sum(dim=(0, 2))
    assert gb.dtype == dtype and torch.isfinite(gb).all()
    scale = gy.double().abs().sum(dim=(0, 2)) / (N * L) ** 0.5  # the sum's typical size: bound cancellation
    assert ((gb.double() - want).abs() / torch.maximum(want.abs(), scale)).max().item() <= tol
    assert torch.equal(_ops._backward(gy, x, w, (1, 0, 0, 1, 1), [False, False, True])[2], gb)


# Batch folding (fold.cu; its layout fold_layout.cuh, checked on the CPU by tests/c/test_fold.c): short samples laid end to end, each followed by zeros, run as one long row at batch 1
# and padding 0, and each sample's y cut out of that row. Forced on (CONVT1D_FOLD=1: wherever legal), off, and as
# shipped; the test states the rule itself (half the 128-position tiles or fewer, 2^31 multiply-adds or more, 2^27 in
# strict fp32; not depthwise). Cases:
# output_padding past the padding (columns holding only the bias, where the next sample's zeros must be), padding
# wider than the stride, dilation, groups, one input position, stride 1, odd lengths; y's memory poisoned first.
FOLD_CASES = [
    dict(N=8, Cin=192, Cout=96, K=16, L=34, stride=8, padding=4, output_padding=0, groups=1, dilation=1, bias=True),
    dict(N=8, Cin=1024, Cout=768, K=16, L=34, stride=8, padding=4, output_padding=0, groups=1, dilation=1, bias=True),
    dict(N=5, Cin=32, Cout=40, K=5, L=7, stride=3, padding=0, output_padding=2, groups=1, dilation=2, bias=True),
    dict(N=3, Cin=64, Cout=64, K=4, L=20, stride=2, padding=1, output_padding=1, groups=2, dilation=1, bias=False),
    dict(N=4, Cin=48, Cout=32, K=3, L=1, stride=1, padding=1, output_padding=0, groups=1, dilation=1, bias=True),
    dict(N=6, Cin=32, Cout=24, K=7, L=50, stride=4, padding=9, output_padding=3, groups=1, dilation=1, bias=True),
    dict(N=16, Cin=256, Cout=128, K=16, L=32, stride=8, padding=4, output_padding=0, groups=1, dilation=1, bias=True),
    dict(N=40, Cin=64, Cout=128, K=16, L=33, stride=8, padding=4, output_padding=0, groups=1, dilation=1, bias=True),
    dict(N=3, Cin=128, Cout=64, K=10, L=75, stride=5, padding=0, output_padding=4, groups=1, dilation=1, bias=False),
    dict(N=4, Cin=32, Cout=48, K=1, L=9, stride=3, padding=0, output_padding=2, groups=1, dilation=1, bias=True),
]


def fold_expected(c, pick, mode):
    """The test's own statement of when a layer folds (fold.cu's convt1d_fold_plan)."""
    if pick == "off" or c["N"] < 2 or c["Cin"] // c["groups"] == 1:
        return False
    s, L, lout = c["stride"], c["L"], out_len(c)
    full = (L - 1) * s + c["dilation"] * (c["K"] - 1) + 1
    lp = max(L, -(-max(full, c["padding"] + lout) // s), L + -(-(c["output_padding"] - c["padding"]) // s))
    if pick == "forced":
        return True
    macs = c["N"] * L * c["Cin"] * (c["Cout"] // c["groups"]) * c["K"]
    return macs >= (1 << 27 if mode == "strict" else 1 << 31) and 2 * -(-(c["N"] * lp) // 128) <= c["N"] * -(-lp // 128)


@pytest.mark.parametrize("pick", ["forced", "off", "shipped"])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(FOLD_CASES)))
def test_cuda_forward_batch_fold(ci, mode, tol, pick, monkeypatch):
    c = FOLD_CASES[ci]
    monkeypatch.setattr(torch.backends.cudnn, "allow_tf32", mode != "strict")
    if pick != "shipped":
        monkeypatch.setenv("CONVT1D_FOLD", "1" if pick == "forced" else "0")
    monkeypatch.setenv("CONVT1D_TINY_FP32", "0")  # the small cases in TF32 as TF32 (the tolerance is TF32's)
    dtype = MODE_DTYPE[mode]
    x, w, b = make_inputs(c, device="cuda", gen=torch.Generator().manual_seed(1000 + ci))
    xd, wd, bd = x.to(dtype), w.to(dtype), None if b is None else b.to(dtype)
    torch.full((c["N"] * c["Cout"] * out_len(c) * 2,), float("nan"), device="cuda", dtype=dtype)  # poison, freed
    out = {}
    names = kernels_run(lambda: out.setdefault("y", convt1d.conv_transpose1d(xd, wd, bd, **kwargs(c))))
    y = out["y"]
    assert any("fold_scatter_kernel" in n for n in names) == fold_expected(c, pick, mode), names
    assert y.shape == (c["N"], c["Cout"], out_len(c))
    assert torch.isfinite(y).all()
    assert rel_err(y, ref(x, w, b, c)) <= tol


def test_cuda_graph_batch_fold(monkeypatch):
    """A folded forward (its scratch from the stream's pool) captured in a CUDA graph and replayed on new inputs."""
    monkeypatch.setenv("CONVT1D_FOLD", "1")
    c = FOLD_CASES[0]
    x, w, b = make_inputs(c, dtype=torch.bfloat16, device="cuda")
    static_x = x.clone()
    names = kernels_run(lambda: convt1d.conv_transpose1d(static_x, w, b, **kwargs(c)))
    assert any("fold_scatter_kernel" in n for n in names), names
    graph, y = captured(lambda: convt1d.conv_transpose1d(static_x, w, b, **kwargs(c)))
    for _ in range(2):
        nx = torch.randn_like(x)
        static_x.copy_(nx)
        graph.replay()
        torch.cuda.synchronize()
        assert rel_err(y, ref(nx, w, b, c)) <= 1e-2


@pytest.mark.parametrize("needs", [(True, True, True), (True, False, False), (False, True, False)],
                         ids=["all", "grad_x", "grad_w"])
@pytest.mark.parametrize("pick", ["forced", "off", "shipped"])
@pytest.mark.parametrize("mode,tol", [("strict", 1e-5), ("tf32", 5e-3), ("f16", 2e-3), ("bf16", 1e-2)])
@pytest.mark.parametrize("ci", range(len(FOLD_CASES)))
def test_cuda_backward_batch_fold(ci, mode, tol, pick, needs, monkeypatch):
    # The folded gradients (CONVT1D_FOLD_BWD; the same rule as the forward's): grad_y placed into a long row of zeros,
    # the folded layer's grad_x / grad_w, grad_x cut out; each gradient alone and all three, against float64.
    c = FOLD_CASES[ci]
    if needs != (True, True, True) and (pick != "forced" or mode not in ("tf32", "bf16")):
        pytest.skip("one gradient alone: forced, in two modes")
    monkeypatch.setattr(torch.backends.cudnn, "allow_tf32", mode != "strict")
    monkeypatch.setenv("CONVT1D_FOLD", "0")  # the forward as it is (tested above)
    if pick != "shipped":
        monkeypatch.setenv("CONVT1D_FOLD_BWD", "1" if pick == "forced" else "0")
    monkeypatch.setenv("CONVT1D_TINY_FP32", "0")
    dtype = MODE_DTYPE[mode]
    gen = torch.Generator().manual_seed(torch.seed() & 0xFFFFFFFF)
    x, w, b = make_inputs(c, dtype=dtype, device="cuda", gen=gen)
    bias_needed = needs[2] and b is not None
    ins = [t.clone().requires_grad_(n) for t, n in zip((x, w), needs[:2])] + \
          ([b.clone().requires_grad_(bias_needed)] if b is not None else [None])
    y = convt1d.conv_transpose1d(ins[0], ins[1], ins[2], **kwargs(c))
    gy = torch.randn(y.shape, generator=gen).to(dtype).cuda()
    torch.full((2 * (x.numel() + w.numel()),), float("nan"), device="cuda", dtype=dtype)  # poison, freed
    wanted = [t for t in ins if t is not None and t.requires_grad]
    out = {}
    names = kernels_run(lambda: out.setdefault("g", torch.autograd.grad(y, wanted, gy)))
    assert any("fold_place_kernel" in n for n in names) == fold_expected(c, pick, mode), names
    ins64 = [None if t is None else t.detach().double().requires_grad_(t.requires_grad) for t in ins]
    theirs = torch.autograd.grad(ref(ins64[0], ins64[1], ins64[2], c), [t for t in ins64 if t is not None and t.requires_grad],
                                 gy.double())
    for o, t in zip(out["g"], theirs):
        assert o.dtype == dtype and torch.isfinite(o).all() and rel_err(o, t) <= tol
