"""Gradients: gradcheck / gradgradcheck in float64, parity with PyTorch, needs_input_grad, opcheck."""
import pytest
import torch
import torch.nn.functional as F

import convt1d
from helpers import edge_cases, kwargs, make_inputs, random_configs, rel_err

GRAD_CASES = [c for c in edge_cases() if c["N"] > 0] + random_configs(12, seed=7, max_len=8)
IDS = [c["name"] for c in GRAD_CASES]


def f_for(c):
    kw = kwargs(c)
    return lambda x, w, *b: convt1d.conv_transpose1d(x, w, b[0] if b else None, **kw)


def leaf_inputs(c):
    x, w, b = make_inputs(c)
    ins = [x.requires_grad_(), w.requires_grad_()]
    if b is not None:
        ins.append(b.requires_grad_())
    return ins


@pytest.mark.parametrize("c", GRAD_CASES, ids=IDS)
def test_gradcheck(c):
    if c["N"] * c["Cout"] * c["L"] * c["K"] > 4000:
        c = dict(c, N=1, L=min(c["L"], 6))
    big = c["N"] * c["Cin"] * c["L"] + c["Cin"] * c["Cout"] * c["K"] > 300
    assert torch.autograd.gradcheck(f_for(c), leaf_inputs(c), fast_mode=big)


@pytest.mark.parametrize("c", GRAD_CASES[:10] + GRAD_CASES[-4:], ids=IDS[:10] + IDS[-4:])
def test_gradgradcheck(c):
    if c["N"] * c["Cout"] * c["L"] * c["K"] > 2000:
        c = dict(c, N=1, L=min(c["L"], 5))
    # Full (slow) mode on the small ones, the randomized fast mode on the rest.
    big = c["N"] * c["Cin"] * c["L"] + c["Cin"] * c["Cout"] * c["K"] > 120
    assert torch.autograd.gradgradcheck(f_for(c), leaf_inputs(c), fast_mode=big)


def test_gradcheck_through_registered_op():
    # The torch.ops path (used by torch.compile and under autocast) has its own autograd registration.
    c = dict(N=2, Cin=4, Cout=6, K=3, L=5, stride=2, padding=1, output_padding=1, groups=2,
             dilation=2, bias=True)
    ins = leaf_inputs(c)
    op = lambda x, w, b: torch.ops.convt1d.conv_transpose1d(x, w, b, 2, 1, 1, 2, 2)
    assert torch.autograd.gradcheck(op, ins)
    assert torch.autograd.gradgradcheck(op, ins)


def test_gradcheck_backward_op_itself():
    c = dict(N=2, Cin=4, Cout=6, K=3, L=5, stride=2, padding=1, output_padding=1, groups=2,
             dilation=2, bias=True)
    x, w, _ = make_inputs(c)
    gy = torch.randn(2, 6, 12, dtype=torch.float64)
    for mask in ([True, True, True], [True, False, False], [False, True, True], [False, False, True]):
        def fn(gy, x, w, mask=mask):
            out = torch.ops.convt1d.conv_transpose1d_backward(gy, x, w, 2, 1, 1, 2, 2, mask)
            return tuple(o for o, m in zip(out, mask) if m)
        ins = (gy.clone().requires_grad_(), x.clone().requires_grad_(), w.clone().requires_grad_())
        assert torch.autograd.gradcheck(fn, ins, fast_mode=True)


@pytest.mark.parametrize("c", GRAD_CASES, ids=IDS)
def test_grads_match_pytorch(c):
    x, w, b = make_inputs(c)
    gy = torch.randn(F.conv_transpose1d(x, w, b, **kwargs(c)).shape, dtype=torch.float64)
    grads = []
    for fn in (convt1d.conv_transpose1d, F.conv_transpose1d):
        ins = [t.clone().requires_grad_() for t in (x, w) + ((b,) if b is not None else ())]
        y = fn(ins[0], ins[1], ins[2] if b is not None else None, **kwargs(c))
        grads.append(torch.autograd.grad(y, ins, gy))
    for ours, theirs in zip(*grads):
        assert rel_err(ours, theirs) <= 1e-12


@pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-5), (torch.float16, 3e-3), (torch.bfloat16, 2e-2)])
def test_grads_low_precision(dtype, tol):
    c = dict(N=2, Cin=8, Cout=6, K=4, L=20, stride=2, padding=1, output_padding=0, groups=2,
             dilation=1, bias=True)
    x, w, b = make_inputs(c, dtype=dtype)
    ins = [t.clone().requires_grad_() for t in (x, w, b)]
    y = convt1d.conv_transpose1d(*ins, **kwargs(c))
    gy = torch.randn_like(y)
    ours = torch.autograd.grad(y, ins, gy)
    ins64 = [t.double().requires_grad_() for t in (x, w, b)]
    theirs = torch.autograd.grad(F.conv_transpose1d(*ins64, **kwargs(c)), ins64, gy.double())
    for o, t in zip(ours, theirs):
        assert o.dtype == dtype
        assert rel_err(o, t) <= tol


@pytest.mark.parametrize("path", ["python", "cpp"])
def test_only_needed_grads_are_computed(path, monkeypatch):
    # python: the eager autograd.Function, whose backward mask is spied on; cpp: the C++ eager op (src/torch), whose
    # mask is not visible from here (the CUDA test test_cuda_eager_op_backward_mask sees its kernels): the gradients
    # not asked for must stay None, and those asked for match PyTorch.
    from convt1d import _ops, functional
    calls = []
    if path == "python":
        orig = _ops.backward_impl

        def spy(*args):
            calls.append(tuple(args[-1]))
            return orig(*args)

        monkeypatch.setattr(functional, "_eager_op", None)
        monkeypatch.setattr(_ops, "backward_impl", spy)
        monkeypatch.setattr(_ops.EagerFunction, "backward", _patched_backward(spy))
    elif _ops.eager_op is None:
        pytest.skip("the C++ eager op is not built for this torch")
    x, w, b = torch.randn(2, 4, 9), torch.randn(4, 3, 3), torch.randn(3)
    for needs, expected in (((True, False, False), (True, False, False)),
                            ((False, True, False), (False, True, False)),
                            ((False, False, True), (False, False, True)),
                            ((True, True, True), (True, True, True))):
        ins = [t.clone().requires_grad_(n) for t, n in zip((x, w, b), needs)]
        y = convt1d.conv_transpose1d(*ins)
        assert ("CppFunction" in type(y.grad_fn).__name__) == (path == "cpp")
        y.sum().backward()
        if path == "python":
            assert calls[-1] == expected
        refs = [t.detach().clone().requires_grad_(n) for t, n in zip((x, w, b), needs)]
        F.conv_transpose1d(*refs).sum().backward()
        for t, r, n in zip(ins, refs, needs):
            assert (t.grad is not None) == n
            if n:
                assert rel_err(t.grad, r.grad) <= 1e-5


def _patched_backward(spy):
    def backward(ctx, gy):
        x, w = ctx.saved_tensors
        need = ctx.needs_input_grad
        mask = [bool(need[0]), bool(need[1]), bool(need[2])]
        gx, gw, gb = spy(gy, x, w, *ctx.conv, mask)
        return (gx if mask[0] else None, gw if mask[1] else None, gb if mask[2] else None, None)
    return staticmethod(backward)


def test_registered_op_needs_input_grad():
    x, w, b = torch.randn(2, 4, 9), torch.randn(4, 3, 3, requires_grad=True), torch.randn(3)
    y = torch.ops.convt1d.conv_transpose1d(x, w, b, 1, 0, 0, 1, 1)
    y.sum().backward()
    assert w.grad is not None and w.grad.shape == w.shape


def test_empty_batch_grads_are_zero():
    x = torch.randn(0, 4, 10, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 3, 3, dtype=torch.float64, requires_grad=True)
    b = torch.randn(3, dtype=torch.float64, requires_grad=True)
    y = convt1d.conv_transpose1d(x, w, b)
    y.sum().backward()
    assert x.grad.shape == x.shape
    assert torch.equal(w.grad, torch.zeros_like(w)) and torch.equal(b.grad, torch.zeros_like(b))
    # Also straight through the backward op (the C entry points must zero grad_w/grad_b).
    gx, gw, gb = torch.ops.convt1d.conv_transpose1d_backward(
        torch.randn(0, 3, 12, dtype=torch.float64), x.detach(), w.detach(), 1, 0, 0, 1, 1, [True, True, True])
    assert torch.equal(gw, torch.zeros_like(w)) and torch.equal(gb, torch.zeros(3, dtype=torch.float64))


def test_non_contiguous_grad_output():
    x = torch.randn(2, 4, 9, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 3, 3, dtype=torch.float64, requires_grad=True)
    y = convt1d.conv_transpose1d(x, w, stride=2)
    gy = torch.randn(y.shape[2], 3, 2, dtype=torch.float64).permute(2, 1, 0)
    gx, gw = torch.autograd.grad(y, (x, w), gy)
    x2, w2 = x.detach().requires_grad_(), w.detach().requires_grad_()
    rx, rw = torch.autograd.grad(F.conv_transpose1d(x2, w2, stride=2), (x2, w2), gy)
    assert rel_err(gx, rx) <= 1e-12 and rel_err(gw, rw) <= 1e-12


def test_non_contiguous_inputs_first_and_second_order():
    # The eager Function keeps the inputs themselves for backward and hands the kernels contiguous copies: the first
    # gradients must match PyTorch, and a double backward must still reach the (non-contiguous) leaves.
    xs = torch.randn(9, 4, 2, dtype=torch.float64).permute(2, 1, 0).requires_grad_()
    ws = torch.randn(3, 3, 4, dtype=torch.float64).permute(2, 1, 0).requires_grad_()
    assert not xs.is_contiguous() and not ws.is_contiguous()
    f = lambda x, w: convt1d.conv_transpose1d(x, w, stride=2, padding=1)  # noqa: E731
    gy = torch.randn_like(f(xs, ws))
    gx, gw = torch.autograd.grad(f(xs, ws), (xs, ws), gy)
    rx, rw = torch.autograd.grad(F.conv_transpose1d(xs, ws, stride=2, padding=1), (xs, ws), gy)
    assert rel_err(gx, rx) <= 1e-12 and rel_err(gw, rw) <= 1e-12
    assert torch.autograd.gradgradcheck(f, (xs, ws))


def test_opcheck():
    # Schema, fake kernel, autograd registration and AOT dispatch, as torch.library checks them.
    x = torch.randn(2, 4, 9, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 3, 3, dtype=torch.float64, requires_grad=True)
    b = torch.randn(6, dtype=torch.float64, requires_grad=True)
    torch.library.opcheck(torch.ops.convt1d.conv_transpose1d.default, (x, w, b, 2, 1, 1, 2, 2))
    torch.library.opcheck(torch.ops.convt1d.conv_transpose1d.default, (x.float().detach(), w.float().detach(), None, 1, 0, 0, 1, 1))
    gy = torch.randn(2, 6, 20, dtype=torch.float64)
    torch.library.opcheck(torch.ops.convt1d.conv_transpose1d_backward.default,
                          (gy, x.detach(), w.detach(), 2, 1, 1, 2, 2, [True, True, True]))


@pytest.mark.parametrize("path", ["python", "cpp"])
@pytest.mark.parametrize("c", GRAD_CASES[:8] + GRAD_CASES[-3:], ids=IDS[:8] + IDS[-3:])
def test_forward_ad_matches_pytorch(c, path, monkeypatch):
    """Forward-mode AD (dual tensors): y's tangent equals PyTorch's for tangents on x, w, b and all of them, on both
    eager paths (dual tensors go to the Python Function, whose jvp the C++ node lacks)."""
    import torch.autograd.forward_ad as fwAD
    from convt1d import _ops, functional
    if path == "python":
        monkeypatch.setattr(functional, "_eager_op", None)
    elif _ops.eager_op is None:
        pytest.skip("the C++ eager op is not built for this torch")
    x, w, b = make_inputs(c)
    kw = kwargs(c)
    prim = [x, w] + ([b] if b is not None else [])
    tans = [torch.randn_like(t) for t in prim]
    subsets = [[i] for i in range(len(prim))] + [list(range(len(prim)))]
    for requires_grad in (False, True):
        for sub in subsets:
            with fwAD.dual_level():
                ins = [fwAD.make_dual(t.clone().requires_grad_(requires_grad), tans[i]) if i in sub else t
                       for i, t in enumerate(prim)]
                y = convt1d.conv_transpose1d(*ins, **kw)
                r = F.conv_transpose1d(*ins, **kw)
                ty, tr = fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(r).tangent
                assert ty is not None and ty.shape == tr.shape
                assert rel_err(fwAD.unpack_dual(y).primal, fwAD.unpack_dual(r).primal) <= 1e-12
                assert rel_err(ty, tr) <= 1e-12


FUNC_CASES = [dict(N=2, Cin=4, Cout=6, K=3, L=7, stride=2, padding=1, output_padding=1, groups=2, dilation=2, bias=True),
              dict(N=2, Cin=3, Cout=2, K=2, L=5, stride=1, padding=0, output_padding=0, groups=1, dilation=1, bias=False)]


@pytest.mark.filterwarnings("error:There is a performance drop")  # the ops' vmap rules, not torch's per-sample loop
@pytest.mark.parametrize("transform", ["grad", "jvp", "jacrev", "jacfwd", "vmap", "vmap_weights", "vmap_middle_dims",
                                       "hvp", "vmap_grad", "per_sample_grads"])
@pytest.mark.parametrize("c", FUNC_CASES, ids=["grouped_strided_bias", "plain"])
def test_torch_func_transforms_match_pytorch(c, transform):
    """torch.func: the op's autograd.Function (setup_context, jvp, generated vmap rule), applied from Python under
    functorch. Before, grad / jacrev raised and jvp returned a wrong tangent."""
    x, w, b = make_inputs(c)
    b = b if b is not None else torch.zeros(c["Cout"], dtype=torch.float64)
    kw = kwargs(c)
    ours = lambda x, w, b: convt1d.conv_transpose1d(x, w, b, **kw)  # noqa: E731
    theirs = lambda x, w, b: F.conv_transpose1d(x, w, b, **kw)  # noqa: E731
    t = (torch.randn_like(x), torch.randn_like(w), torch.randn_like(b))
    gy = torch.randn_like(theirs(x, w, b))
    f = torch.func
    run = {
        "grad": lambda g: f.grad(lambda x, w, b: g(x, w, b).pow(2).sum(), argnums=(0, 1, 2))(x, w, b),
        "jvp": lambda g: f.jvp(g, (x, w, b), t)[1],
        "jacrev": lambda g: f.jacrev(g, argnums=(0, 1))(x[:1], w, b),
        "jacfwd": lambda g: f.jacfwd(g, argnums=(0, 1))(x[:1], w, b),
        "vmap": lambda g: f.vmap(g, in_dims=(0, None, None))(torch.stack([x, 2 * x]), w, b),
        "vmap_weights": lambda g: f.vmap(g, in_dims=(None, 0, 0))(x, torch.stack([w, -w, 2 * w]), torch.stack([b, b, -b])),
        "vmap_middle_dims": lambda g: f.vmap(g, in_dims=(1, 2, None))(torch.stack([x, 2 * x], 1), torch.stack([w, -w], 2), b),
        "per_sample_grads": lambda g: f.vmap(f.grad(lambda xi, gi, w, b: (g(xi[None], w, b) * gi[None]).sum(),
                                                    argnums=(2, 3)), in_dims=(0, 0, None, None))(x, gy, w, b),
        "hvp": lambda g: f.jvp(f.grad(lambda w: g(x, w, b).pow(2).sum()), (w,), (t[1],))[1],
        "vmap_grad": lambda g: f.vmap(f.grad(lambda xi, w: g(xi.unsqueeze(0), w, b).pow(2).sum(), argnums=1),
                                      in_dims=(0, None))(x, w),
    }[transform]
    got, want = run(ours), run(theirs)
    flat = lambda r: [r] if isinstance(r, torch.Tensor) else [u for v in r for u in flat(v)]  # noqa: E731
    for a, e in zip(flat(got), flat(want)):
        assert a.shape == e.shape
        assert rel_err(a, e) <= 1e-12


def test_forward_ad_through_registered_ops():
    """A dual level through the convt1d:: ops themselves (the path of autocast, modes and compiled graphs): the ops'
    Autograd kernels carry the jvp, the backward op's too (forward-over-reverse)."""
    import torch.autograd.forward_ad as fwAD
    c = FUNC_CASES[0]
    x, w, b = make_inputs(c)
    args = (c["stride"], c["padding"], c["output_padding"], c["groups"], c["dilation"])
    tx, tw = torch.randn_like(x), torch.randn_like(w)
    with fwAD.dual_level():
        y = torch.ops.convt1d.conv_transpose1d(fwAD.make_dual(x, tx), fwAD.make_dual(w, tw), b, *args)
        r = F.conv_transpose1d(fwAD.make_dual(x, tx), fwAD.make_dual(w, tw), b, *args)
        assert rel_err(fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(r).tangent) <= 1e-12
        gy = torch.randn_like(r)
        outs = torch.ops.convt1d.conv_transpose1d_backward(gy, fwAD.make_dual(x, tx), fwAD.make_dual(w, tw), *args,
                                                           [True, True, True])
        xr = fwAD.make_dual(x.clone().requires_grad_(), tx)
        wr = fwAD.make_dual(w.clone().requires_grad_(), tw)
        ref = torch.autograd.grad(F.conv_transpose1d(xr, wr, None, *args), (xr, wr), gy, create_graph=True)
        for o, e in zip(outs[:2], ref):
            assert rel_err(fwAD.unpack_dual(o).tangent, fwAD.unpack_dual(e).tangent) <= 1e-12
