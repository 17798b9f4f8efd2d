"""torch.compile(fullgraph=True) and autocast on CPU."""
import pytest
import torch
import torch.nn.functional as F

import convt1d
from helpers import rel_err

torch._dynamo.config.cache_size_limit = 64


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def test_compile_functional_forward_fullgraph():
    kw = dict(stride=2, padding=1, output_padding=1, groups=2, dilation=2)
    fn = torch.compile(lambda x, w, b: torch.relu(convt1d.conv_transpose1d(x, w, b, **kw)) * 2,
                       fullgraph=True)
    x, w, b = torch.randn(3, 4, 11), torch.randn(4, 3, 3), torch.randn(6)
    assert rel_err(fn(x, w, b), torch.relu(F.conv_transpose1d(x, w, b, **kw)) * 2) <= 1e-5
    x = torch.randn(3, 4, 7)  # recompiles (dynamic length): the fake kernel handles a symbolic L
    assert rel_err(fn(x, w, b), torch.relu(F.conv_transpose1d(x, w, b, **kw)) * 2) <= 1e-5
    assert rel_err(fn(x[0], w, b), torch.relu(F.conv_transpose1d(x[0], w, b, **kw)) * 2) <= 1e-5


def test_compile_no_graph_break():
    m = convt1d.ConvTranspose1d(4, 6, 3, stride=2)
    x = torch.randn(2, 4, 10)
    explain = torch._dynamo.explain(lambda x: m(x).sin())(x)
    assert explain.graph_break_count == 0 and explain.graph_count == 1


def test_compile_dynamic_true():
    m = convt1d.ConvTranspose1d(4, 6, 5, stride=3, padding=2, dilation=2, output_padding=1)
    ref = torch.nn.ConvTranspose1d(4, 6, 5, stride=3, padding=2, dilation=2, output_padding=1)
    ref.load_state_dict(m.state_dict())
    cm = torch.compile(m, fullgraph=True, dynamic=True)
    for n, length in ((2, 9), (3, 17), (1, 1)):
        x = torch.randn(n, 4, length)
        assert rel_err(cm(x), ref(x)) <= 1e-5


def test_compile_module_output_size():
    m = convt1d.ConvTranspose1d(4, 5, 3, stride=3, padding=1, dilation=2).double()
    ref = torch.nn.ConvTranspose1d(4, 5, 3, stride=3, padding=1, dilation=2).double()
    ref.load_state_dict(m.state_dict())
    cm = torch.compile(m, fullgraph=True)
    x = torch.randn(2, 4, 10, dtype=torch.float64)
    for length in (30, 31, 32, 30):
        y = cm(x, output_size=[length])
        assert y.shape[-1] == length
        assert rel_err(y, ref(x, output_size=[length])) <= 1e-12


def test_compile_training_step_matches_eager():
    torch.manual_seed(0)
    make = lambda: torch.nn.Sequential(convt1d.ConvTranspose1d(8, 6, 4, stride=2, padding=1),
                                       torch.nn.GELU(),
                                       convt1d.ConvTranspose1d(6, 3, 3, groups=3, bias=False)).double()
    eager, comp = make(), make()
    comp.load_state_dict(eager.state_dict())
    opt_e = torch.optim.Adam(eager.parameters(), lr=1e-2)
    opt_c = torch.optim.Adam(comp.parameters(), lr=1e-2)

    def step(model, opt, x, t):
        opt.zero_grad()
        loss = F.mse_loss(model(x), t)
        loss.backward()
        opt.step()
        return loss

    # forward + loss compiled with fullgraph; backward runs the compiled backward graph.
    cfwdbwd = torch.compile(lambda x, t: F.mse_loss(comp(x), t), fullgraph=True)
    for i in range(4):
        x = torch.randn(2, 8, 12, dtype=torch.float64)
        t = torch.randn(2, 3, 26, dtype=torch.float64)
        le = step(eager, opt_e, x, t)
        opt_c.zero_grad()
        lc = cfwdbwd(x, t)
        lc.backward()
        opt_c.step()
        assert abs(le.item() - lc.item()) <= 1e-10 * max(1.0, abs(le.item()))
    for pe, pc in zip(eager.parameters(), comp.parameters()):
        assert rel_err(pc, pe) <= 1e-10


def test_compile_backward_graph_has_our_ops():
    from torch._dynamo.testing import AotEagerAndRecordGraphs
    backend = AotEagerAndRecordGraphs()
    x = torch.randn(2, 4, 9, requires_grad=True)
    w = torch.randn(4, 3, 3, requires_grad=True)
    fn = torch.compile(lambda x, w: convt1d.conv_transpose1d(x, w, stride=2).square().sum(),
                       backend=backend, fullgraph=True)
    fn(x, w).backward()
    fw = "\n".join(g.code for g in backend.fw_graphs)
    bw = "\n".join(g.code for g in backend.bw_graphs)
    assert "convt1d.conv_transpose1d.default" in fw
    assert "convt1d.conv_transpose1d_backward.default" in bw
    assert "aten.convolution" not in fw + bw
    x2, w2 = x.detach().requires_grad_(), w.detach().requires_grad_()
    F.conv_transpose1d(x2, w2, stride=2).square().sum().backward()
    assert rel_err(x.grad, x2.grad) <= 1e-5 and rel_err(w.grad, w2.grad) <= 1e-5


def test_autocast_cpu_like_pytorch():
    x, w, b = torch.randn(2, 4, 9), torch.randn(4, 3, 3), torch.randn(3)
    for dtype in (torch.bfloat16, torch.float16):
        with torch.autocast("cpu", dtype=dtype):
            ours = convt1d.conv_transpose1d(x, w, b, stride=2)
            theirs = F.conv_transpose1d(x, w, b, stride=2)
        assert ours.dtype == theirs.dtype == dtype
        assert rel_err(ours, theirs) <= 2e-2
    with torch.autocast("cpu", dtype=torch.bfloat16):  # float64 is not cast (like PyTorch)
        y = convt1d.conv_transpose1d(x.double(), w.double())
    assert y.dtype == torch.float64
    with torch.autocast("cpu", enabled=False):
        assert convt1d.conv_transpose1d(x, w).dtype == torch.float32


def test_autocast_module_backward():
    m = convt1d.ConvTranspose1d(4, 3, 3, stride=2)
    x = torch.randn(2, 4, 9, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = m(x)
    assert y.dtype == torch.bfloat16
    y.float().sum().backward()
    assert x.grad.dtype == torch.float32 and m.weight.grad.dtype == torch.float32


def test_autocast_compiled():
    w, b = torch.randn(4, 3, 3), torch.randn(3)
    fn = torch.compile(lambda x: convt1d.conv_transpose1d(x, w, b, stride=2), fullgraph=True)
    x = torch.randn(2, 4, 9)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = fn(x)
        r = F.conv_transpose1d(x, w, b, stride=2)
    assert y.dtype == torch.bfloat16 and rel_err(y, r) <= 2e-2
