"""convt1d.conv_transpose1d vs PyTorch (float64 reference) and a brute-force reference, on CPU."""
import pytest
import torch
import torch.nn.functional as F

import convt1d
from helpers import (brute, edge_cases, kwargs, make_inputs, out_len, random_configs, ref, rel_err,
                     shrink, suite)

EDGE = edge_cases()
SUITE_SMALL = [shrink(c) for c in suite()]
RANDOM = random_configs(300, seed=2026)


@pytest.mark.parametrize("c", EDGE, ids=[c["name"] for c in EDGE])
def test_edge_cases_f64(c):
    x, w, b = make_inputs(c)
    y = convt1d.conv_transpose1d(x, w, b, **kwargs(c))
    r = ref(x, w, b, c)
    assert y.shape == r.shape == (c["N"], c["Cout"], out_len(c))
    assert y.dtype == torch.float64
    assert rel_err(y, r) <= 1e-12
    assert rel_err(y, brute(x, w, b, c)) <= 1e-12


@pytest.mark.parametrize("c", SUITE_SMALL, ids=[c["name"] for c in SUITE_SMALL])
def test_suite_shapes_shrunk_f64(c):
    x, w, b = make_inputs(c)
    y = convt1d.conv_transpose1d(x, w, b, **kwargs(c))
    assert rel_err(y, ref(x, w, b, c)) <= 1e-12


@pytest.mark.parametrize("c", SUITE_SMALL, ids=[c["name"] for c in SUITE_SMALL])
def test_suite_shapes_shrunk_f32(c):
    x, w, b = make_inputs(c)
    y = convt1d.conv_transpose1d(x.float(), w.float(), None if b is None else b.float(), **kwargs(c))
    assert y.dtype == torch.float32
    assert rel_err(y, ref(x, w, b, c)) <= 1e-5


@pytest.mark.parametrize("c", RANDOM, ids=[c["name"] for c in RANDOM])
def test_random_configs_f64(c):
    x, w, b = make_inputs(c)
    y = convt1d.conv_transpose1d(x, w, b, **kwargs(c))
    r = ref(x, w, b, c)
    assert y.shape == r.shape
    assert rel_err(y, r) <= 1e-12


TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1e-2, torch.float64: 1e-12}


@pytest.mark.parametrize("dtype", list(TOL), ids=str)
@pytest.mark.parametrize("c", RANDOM[:40] + EDGE, ids=[c["name"] for c in RANDOM[:40] + EDGE])
def test_dtypes(c, dtype):
    x, w, b = make_inputs(c, dtype=dtype)  # rounded to dtype; the reference uses the rounded values
    y = convt1d.conv_transpose1d(x, w, b, **kwargs(c))
    assert y.dtype == dtype
    assert rel_err(y, ref(x, w, b, c)) <= TOL[dtype]


def test_low_precision_accumulates_in_f32():
    # 4096 products summed: an f16/bf16 accumulator would be off by far more than one output ulp.
    c = dict(N=1, Cin=4096, Cout=2, K=1, L=3, stride=1, padding=0, output_padding=0, groups=1,
             dilation=1, bias=False)
    for dtype, tol in ((torch.float16, 2e-3), (torch.bfloat16, 1e-2)):
        x = (torch.rand(1, 4096, 3, dtype=torch.float64) + 0.5).to(dtype)
        w = (torch.rand(4096, 2, 1, dtype=torch.float64) + 0.5).to(dtype)
        assert rel_err(convt1d.conv_transpose1d(x, w), ref(x, w, None, c)) <= tol


def test_unbatched():
    c = dict(EDGE[2])
    x, w, b = make_inputs(c)
    y = convt1d.conv_transpose1d(x[1], w, b, **kwargs(c))
    assert y.shape == (c["Cout"], out_len(c))
    assert rel_err(y, ref(x[1:2], w, b, c)[0]) <= 1e-12


@pytest.mark.parametrize("how", ["transpose", "slice_L", "slice_C", "expand_w", "bias_stride"])
def test_non_contiguous(how):
    g = torch.Generator().manual_seed(7)
    x = torch.randn(3, 6, 40, dtype=torch.float64, generator=g)
    w = torch.randn(6, 4, 5, dtype=torch.float64, generator=g)
    b = torch.randn(8, dtype=torch.float64, generator=g)
    if how == "transpose":
        x = torch.randn(40, 6, 3, dtype=torch.float64, generator=g).permute(2, 1, 0)
    elif how == "slice_L":
        x = x[:, :, ::2]
    elif how == "slice_C":
        x = torch.randn(3, 12, 40, dtype=torch.float64, generator=g)[:, 1::2]
    elif how == "expand_w":
        w = torch.randn(6, 4, 1, dtype=torch.float64, generator=g).expand(6, 4, 5)
    elif how == "bias_stride":
        b = torch.randn(16, dtype=torch.float64, generator=g)[::2]
    assert not (x.is_contiguous() and w.is_contiguous() and b.is_contiguous())
    kw = dict(stride=3, padding=2, groups=2, dilation=2, output_padding=1)
    y = convt1d.conv_transpose1d(x, w, b, **kw)
    assert rel_err(y, F.conv_transpose1d(x, w, b, **kw)) <= 1e-12


@pytest.mark.parametrize("form", ["int", "tuple", "list"])
def test_int_or_one_tuple_args(form):
    wrap = {"int": lambda v: v, "tuple": lambda v: (v,), "list": lambda v: [v]}[form]
    x, w = torch.randn(2, 4, 9, dtype=torch.float64), torch.randn(4, 3, 3, dtype=torch.float64)
    kw = dict(stride=wrap(2), padding=wrap(1), output_padding=wrap(1), dilation=wrap(2))
    assert rel_err(convt1d.conv_transpose1d(x, w, None, **kw), F.conv_transpose1d(x, w, None, **kw)) <= 1e-12


def test_positional_args_like_pytorch():
    x, w, b = torch.randn(2, 4, 9, dtype=torch.float64), torch.randn(4, 3, 3, dtype=torch.float64), \
        torch.randn(6, dtype=torch.float64)
    args = (2, 1, 1, 2, 3)  # stride, padding, output_padding, groups, dilation
    x, w = torch.randn(2, 4, 9, dtype=torch.float64), torch.randn(4, 3, 3, dtype=torch.float64)
    assert rel_err(convt1d.conv_transpose1d(x, w, b, *args), F.conv_transpose1d(x, w, b, *args)) <= 1e-12


def test_empty_batch():
    x, w = torch.randn(0, 4, 10), torch.randn(4, 3, 3)
    y = convt1d.conv_transpose1d(x, w, torch.randn(3))
    assert y.shape == F.conv_transpose1d(x, w).shape == (0, 3, 12)


def test_output_does_not_alias_and_inputs_untouched():
    x, w, b = torch.randn(2, 4, 9), torch.randn(4, 3, 3), torch.randn(3)
    x0, w0, b0 = x.clone(), w.clone(), b.clone()
    y1 = convt1d.conv_transpose1d(x, w, b)
    y2 = convt1d.conv_transpose1d(x, w, b)
    assert y1.data_ptr() != y2.data_ptr() and torch.equal(y1, y2)
    assert torch.equal(x, x0) and torch.equal(w, w0) and torch.equal(b, b0)


def test_inference_mode_and_no_grad():
    x, w = torch.randn(2, 4, 9), torch.randn(4, 3, 3, requires_grad=True)
    with torch.inference_mode():
        y = convt1d.conv_transpose1d(x, w)
    assert not y.requires_grad
    with torch.no_grad():
        y2 = convt1d.conv_transpose1d(x, w)
    assert not y2.requires_grad and torch.equal(y, y2)


def test_meta_tensors_give_shapes():
    x, w = torch.empty(2, 4, 9, device="meta"), torch.empty(4, 3, 3, device="meta")
    y = convt1d.conv_transpose1d(x, w, stride=2, padding=1)
    assert y.device.type == "meta" and y.shape == F.conv_transpose1d(x, w, stride=2, padding=1).shape


def test_op_is_registered():
    x, w = torch.randn(2, 4, 9, dtype=torch.float64), torch.randn(4, 3, 3, dtype=torch.float64)
    y = torch.ops.convt1d.conv_transpose1d(x, w, None, 2, 1, 0, 1, 1)
    assert rel_err(y, F.conv_transpose1d(x, w, None, 2, 1)) <= 1e-12
    gx, gw, gb = torch.ops.convt1d.conv_transpose1d_backward(y, x, w, 2, 1, 0, 1, 1, [True, True, True])
    assert gx.shape == x.shape and gw.shape == w.shape and gb.shape == (3,)


def test_shape_math_from_c_core():
    assert convt1d.output_length(10, 3, stride=2, padding=1, output_padding=1, dilation=2) == \
        (10 - 1) * 2 - 2 + 2 * 2 + 1 + 1
    assert convt1d.output_padding_for_size(22, 10, 3, stride=2, padding=1, dilation=2) == 1
    with pytest.raises(ValueError, match="output_size"):
        convt1d.output_padding_for_size(40, 10, 3, stride=2, padding=1, dilation=2)
