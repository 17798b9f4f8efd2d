"""Every error case: convt1d raises what PyTorch raises (RuntimeError family), with a clear message."""
import pytest
import torch
import torch.nn.functional as F

import convt1d

X = torch.randn(2, 4, 10)
W = torch.randn(4, 3, 3)
B = torch.randn(3)

# (id, args, kwargs, exception type convt1d raises, message fragment, PyTorch also raises)
CASES = [
    ("input_1d", (torch.randn(10), W), {}, RuntimeError, "Expected 2D (unbatched) or 3D (batched) input", True),
    ("input_4d", (torch.randn(1, 2, 4, 10), W), {}, RuntimeError, "but got input of size: [1, 2, 4, 10]", True),
    ("weight_2d", (X, torch.randn(4, 3)), {}, RuntimeError, "3-dimensional weight", True),
    ("weight_4d", (X, torch.randn(4, 3, 3, 1)), {}, RuntimeError, "3-dimensional weight", True),
    ("cin_mismatch", (X, torch.randn(5, 3, 3)), {}, RuntimeError, "to have 5 channels, but got 4 channels", True),
    ("bias_len", (X, W, torch.randn(4)), {}, RuntimeError, "expected bias to be 1-dimensional with 3 elements", True),
    ("bias_2d", (X, W, torch.randn(3, 1)), {}, RuntimeError, "but got bias of size [3, 1]", True),
    ("weight_dtype", (X, W.double()), {}, RuntimeError, "weight type (torch.DoubleTensor) should be the same", True),
    ("bias_dtype", (X, W, B.double()), {}, RuntimeError, "bias type (torch.DoubleTensor) should be the same", True),
    ("int_dtype", (X.long(), W.long()), {}, RuntimeError, "float32, float16, bfloat16 and float64", False),
    ("stride_0", (X, W), dict(stride=0), ValueError, "stride must be >= 1", True),
    ("stride_neg", (X, W), dict(stride=-2), ValueError, "stride must be >= 1", True),
    ("padding_neg", (X, W), dict(padding=-1), ValueError, "padding must be >= 0", True),
    ("output_padding_neg", (X, W), dict(output_padding=-1), ValueError, "output_padding must be >= 0", True),
    ("output_padding_too_big", (X, W), dict(output_padding=1), ValueError, "output_padding must be smaller than either stride or dilation", True),
    ("output_padding_eq_stride", (X, W), dict(stride=2, dilation=2, output_padding=2), ValueError, "output_padding must be smaller", True),
    ("dilation_0", (X, W), dict(dilation=0), ValueError, "dilation must be >= 1", True),
    ("groups_0", (X, W), dict(groups=0), ValueError, "groups must be >= 1", True),
    ("groups_not_dividing", (X, W), dict(groups=3), ValueError, "in_channels (4) must be divisible by groups (3)", True),
    ("output_too_small", (X, W), dict(padding=20), ValueError, "output length must be >= 1", True),
    ("length_zero", (torch.randn(2, 4, 0), W), {}, ValueError, "input length (L_in) must be >= 1", True),
    ("cin_zero", (torch.randn(2, 0, 5), torch.randn(0, 3, 3)), {}, ValueError, "in_channels must be >= 1", True),
    ("kernel_zero", (X, torch.randn(4, 3, 0)), {}, ValueError, "kernel_size must be >= 1", True),
    ("cout_zero", (X, torch.randn(4, 0, 3)), {}, ValueError, "out_channels must be >= 1", True),
    ("stride_two_values", (X, W), dict(stride=(1, 2)), RuntimeError, "expected stride to be a single integer value or a list of 1 values", True),
    ("padding_two_values", (X, W), dict(padding=[1, 1]), RuntimeError, "expected padding to be a single integer value", True),
    ("stride_float", (X, W), dict(stride=2.0), TypeError, "argument 'stride' must be tuple of ints, not float", True),
    ("groups_float", (X, W), dict(groups=1.0), TypeError, "argument 'groups' must be int", True),
    ("input_not_tensor", ([[1.0]], W), {}, TypeError, "argument 'input' must be Tensor", True),
    # bools are ints to the C++ eager op's schema: functional.py must not let them reach it
    ("stride_bool", (X, W), dict(stride=True), TypeError, "argument 'stride' must be tuple of ints, not bool", True),
    ("dilation_bool", (X, W), dict(dilation=False), TypeError, "argument 'dilation' must be tuple of ints, not bool", True),
    ("groups_bool", (X, W), dict(groups=True), TypeError, "argument 'groups' must be int, not bool", True),
    ("unbatched_cin_mismatch", (torch.randn(5, 10), W), {}, RuntimeError, "to have 4 channels, but got 5 channels", True),
    ("unbatched_bias_len", (X[0], W, torch.randn(5)), {}, RuntimeError, "with 3 elements, but got bias of size [5]", True),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_error(case):
    _, args, kw, exc, fragment, torch_raises = case
    with pytest.raises(exc) as info:
        convt1d.conv_transpose1d(*args, **kw)
    assert fragment in str(info.value)
    if exc is ValueError:  # parameter-rule failures are ValueErrors *and* RuntimeErrors (like PyTorch)
        assert isinstance(info.value, RuntimeError) and isinstance(info.value, convt1d.Convt1dError)
    if torch_raises:
        with pytest.raises((RuntimeError, TypeError, ValueError)):
            F.conv_transpose1d(*args, **kw)


def test_error_carries_status_and_message_from_c_core():
    with pytest.raises(convt1d.Convt1dValueError) as info:
        convt1d.conv_transpose1d(X, W, stride=0)
    assert info.value.status == 1  # CONVT1D_ERROR_INVALID_VALUE
    assert "got 0" in str(info.value)


def test_errors_do_not_poison_later_calls():
    with pytest.raises(RuntimeError):
        convt1d.conv_transpose1d(X, W, padding=20)
    y = convt1d.conv_transpose1d(X.double(), W.double())
    assert torch.allclose(y, F.conv_transpose1d(X.double(), W.double()))


def test_error_on_grad_path_too():
    w = W.clone().requires_grad_()
    with pytest.raises(ValueError, match="dilation must be >= 1"):
        convt1d.conv_transpose1d(X, w, dilation=0)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_device_mismatch():
    with pytest.raises(RuntimeError, match="should be the same"):
        convt1d.conv_transpose1d(X.cuda(), W)
    with pytest.raises(RuntimeError, match="should be the same"):
        convt1d.conv_transpose1d(X.cuda(), W.cuda(), B)


def test_module_errors():
    with pytest.raises(ValueError, match="padding mode"):
        convt1d.ConvTranspose1d(4, 3, 3, padding_mode="reflect")
    with pytest.raises(ValueError):
        torch.nn.ConvTranspose1d(4, 3, 3, padding_mode="reflect")
    m = convt1d.ConvTranspose1d(4, 3, 3, stride=2)
    m.padding_mode = "circular"
    with pytest.raises(ValueError, match="Only `zeros` padding mode"):
        m(X)
    m.padding_mode = "zeros"
    with pytest.raises(ValueError, match="output_size"):
        m(X, output_size=[100])
    with pytest.raises(ValueError, match="output_size must have 1 or 3 elements"):
        m(X, output_size=[1, 2])
    with pytest.raises(ValueError):
        torch.nn.ConvTranspose1d(4, 3, 3, stride=2)(X, output_size=[100])
    with pytest.raises(ValueError, match="divisible by groups"):
        convt1d.ConvTranspose1d(4, 3, 3, groups=2)


def test_eager_fast_path_takes_valid_calls_only(monkeypatch):
    """functional.py calls the C++ eager op first with unchecked arguments: valid calls never reach the Python
    checks; every refused one does (the cases above then check that it raises PyTorch's errors)."""
    from convt1d import _ops, functional
    if _ops.eager_op is None:
        pytest.skip("the C++ eager op is not built for this torch")
    checked = []  # one entry per call that reaches the full path (its first step: stride's _single)
    orig = functional._single
    monkeypatch.setattr(functional, "_single", lambda v, name: (checked.append(1) if name == "stride" else None,
                                                                 orig(v, name))[1])
    x, w, b = X.double(), W.double(), B.double()
    for args, kw in (((x, w, b), dict(stride=2, padding=1)), ((x[0], w, b), {}), ((x, w), dict(dilation=2))):
        y = convt1d.conv_transpose1d(*args, **kw)
        assert torch.allclose(y, F.conv_transpose1d(*args, **kw))
    y = convt1d.conv_transpose1d(x, w.clone().requires_grad_(), b)
    assert "CppFunction" in type(y.grad_fn).__name__
    assert checked == []
    convt1d.conv_transpose1d(x, w, b, (2,))  # a one-tuple: valid, on the full path
    assert len(checked) == 1
    for case in CASES:
        with pytest.raises(case[3]):
            convt1d.conv_transpose1d(*case[1], **case[2])
    assert len(checked) == 1 + len(CASES)
