"""convt1d.ConvTranspose1d is a drop-in for torch.nn.ConvTranspose1d."""
import pytest
import torch

import convt1d
from helpers import rel_err

CONFIGS = [
    dict(args=(4, 6, 3), kw={}),
    dict(args=(8, 6, 5), kw=dict(stride=2, padding=1, output_padding=1, groups=2, dilation=2)),
    dict(args=(6, 9, (4,)), kw=dict(stride=(3,), padding=(2,), groups=3, bias=False)),
    dict(args=(16, 16, 4), kw=dict(stride=2, padding=1, groups=16)),
    dict(args=(5, 7, 1), kw=dict(bias=True, dilation=3)),
]
IDS = [f"cfg{i}" for i in range(len(CONFIGS))]


def pair(cfg, seed=42, **extra):
    torch.manual_seed(seed)
    ref = torch.nn.ConvTranspose1d(*cfg["args"], **cfg["kw"], **extra)
    torch.manual_seed(seed)
    ours = convt1d.ConvTranspose1d(*cfg["args"], **cfg["kw"], **extra)
    return ref, ours


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_same_seed_same_weights_and_attributes(cfg):
    ref, ours = pair(cfg)
    assert torch.equal(ref.weight, ours.weight)
    assert (ref.bias is None) == (ours.bias is None)
    if ref.bias is not None:
        assert torch.equal(ref.bias, ours.bias)
    for a in ("in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding",
              "groups", "dilation", "padding_mode", "transposed"):
        assert getattr(ref, a) == getattr(ours, a), a
    assert ref.extra_repr() == ours.extra_repr()
    assert repr(ref) == repr(ours)
    # The RNG was consumed identically: the next draw matches too.
    torch.manual_seed(42)
    torch.nn.ConvTranspose1d(*cfg["args"], **cfg["kw"])
    a = torch.rand(3)
    torch.manual_seed(42)
    convt1d.ConvTranspose1d(*cfg["args"], **cfg["kw"])
    assert torch.equal(a, torch.rand(3))


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_forward_matches(cfg):
    ref, ours = pair(cfg, dtype=torch.float64)
    x = torch.randn(3, cfg["args"][0], 11, dtype=torch.float64)
    assert rel_err(ours(x), ref(x)) <= 1e-12
    assert rel_err(ours(x[0]), ref(x[0])) <= 1e-12  # unbatched


@pytest.mark.parametrize("cfg", CONFIGS, ids=IDS)
def test_state_dict_both_ways(cfg):
    ref, ours = pair(cfg, seed=1)
    other_ref, other_ours = pair(cfg, seed=2)
    assert list(ref.state_dict()) == list(ours.state_dict())
    other_ours.load_state_dict(ref.state_dict())
    assert torch.equal(other_ours.weight, ref.weight)
    other_ref.load_state_dict(ours.state_dict())
    assert torch.equal(other_ref.weight, ours.weight)
    x = torch.randn(2, cfg["args"][0], 9)
    assert rel_err(other_ours(x), other_ref(x)) <= 1e-5


def test_parameter_shapes_device_dtype():
    m = convt1d.ConvTranspose1d(6, 9, 4, groups=3, dtype=torch.float64, device="cpu")
    assert m.weight.shape == (6, 3, 4) and m.bias.shape == (9,)
    assert m.weight.dtype == torch.float64 and m.weight.device.type == "cpu"
    assert dict(m.named_parameters()).keys() == {"weight", "bias"}
    assert isinstance(m, torch.nn.Module) and not isinstance(m, torch.nn.ConvTranspose1d)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_module_to_dtype(dtype):
    ref, ours = pair(CONFIGS[1])
    ref, ours = ref.double(), ours.to(dtype)
    x = torch.randn(2, 8, 13, dtype=torch.float64)
    tol = {torch.float32: 1e-5, torch.float16: 3e-3, torch.bfloat16: 2e-2}[dtype]
    assert rel_err(ours(x.to(dtype)), ref(x.to(dtype).double())) <= tol


@pytest.mark.parametrize("size_form", ["L", "list3", "tuple1", "size"])
def test_output_size(size_form):
    ref, ours = pair(dict(args=(4, 5, 3), kw=dict(stride=3, padding=1, dilation=2)), dtype=torch.float64)
    x = torch.randn(2, 4, 10, dtype=torch.float64)
    for length in (30, 31, 32):  # min .. min + stride - 1
        size = {"L": [length], "list3": [2, 5, length], "tuple1": (length,),
                "size": torch.Size([2, 5, length])}[size_form]
        y = ours(x, output_size=size)
        assert y.shape[-1] == length
        assert rel_err(y, ref(x, output_size=size)) <= 1e-12
    y = ours(x[0], output_size=[5, 31])  # unbatched: (C, L) form
    assert rel_err(y, ref(x[0], output_size=[5, 31])) <= 1e-12


def test_training_parity_with_pytorch():
    ref, ours = pair(CONFIGS[1], dtype=torch.float64)
    opt_r = torch.optim.SGD(ref.parameters(), lr=0.01, momentum=0.9)
    opt_o = torch.optim.SGD(ours.parameters(), lr=0.01, momentum=0.9)
    for step in range(5):
        x = torch.randn(4, 8, 16, dtype=torch.float64)
        t = torch.randn(4, 6, 38, dtype=torch.float64)
        for m, opt in ((ref, opt_r), (ours, opt_o)):
            opt.zero_grad()
            torch.nn.functional.mse_loss(m(x), t).backward()
            opt.step()
    assert rel_err(ours.weight, ref.weight) <= 1e-12
    assert rel_err(ours.bias, ref.bias) <= 1e-12


@pytest.mark.parametrize("how", ["parametrizations", "old_weight_norm", "assigned", "subclass"])
def test_weight_from_wherever_the_module_keeps_it(how):
    """forward reads weight and bias from the parameter dict for plain instances of the class: the weight computed by
    torch's parametrizations (which swap the instance's class), the old weight_norm hook (which takes it out of the
    dict), a parameter assigned after construction, and a subclass's own attribute lookup must still be the ones used."""
    import warnings

    cfg = CONFIGS[1]
    ref, ours = pair(cfg)
    x = torch.randn(2, 8, 11)
    if how == "parametrizations":
        ours = torch.nn.utils.parametrizations.weight_norm(ours)
        ref = torch.nn.utils.parametrizations.weight_norm(ref)
        with torch.no_grad():
            ours.parametrizations.weight.original0.mul_(3)
            ref.parametrizations.weight.original0.mul_(3)
    elif how == "old_weight_norm":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = torch.nn.utils.weight_norm(ours)
            ref = torch.nn.utils.weight_norm(ref)
        with torch.no_grad():
            ours.weight_g.mul_(3)
            ref.weight_g.mul_(3)
    elif how == "assigned":
        w, b = torch.nn.Parameter(torch.randn_like(ref.weight)), torch.nn.Parameter(torch.randn_like(ref.bias))
        ours.weight, ours.bias = w, b
        ref.weight, ref.bias = w, b
    else:
        class Scaled(convt1d.ConvTranspose1d):
            def __getattr__(self, name):
                v = super().__getattr__(name)
                return v * 3 if name == "weight" else v

        ours = Scaled(*cfg["args"], **cfg["kw"])  # its init ran on the scaled copies: set the parameters here
        with torch.no_grad():
            ours._parameters["weight"].copy_(ref.weight)
            ours._parameters["bias"].copy_(ref.bias)
            ref.weight.mul_(3)
    y, r = ours(x), ref(x)
    assert rel_err(y, r) < 1e-5
    y.sum().backward()  # the gradient reaches the module's own parameters
    assert all(p.grad is not None for p in ours.parameters())
