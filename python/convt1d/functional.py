"""convt1d.conv_transpose1d: drop-in for torch.nn.functional.conv_transpose1d."""
from __future__ import annotations

import torch
from torch import Tensor

from . import _lib, _ops

__all__ = ["conv_transpose1d"]

_Tensor = torch.Tensor
# Exact types the eager fast path accepts: Parameter adds no __torch_function__ behaviour.
_PLAIN = (torch.Tensor, torch.nn.Parameter)
_grad_enabled = torch.is_grad_enabled
_autocast_enabled = torch.is_autocast_enabled
_is_compiling = torch.compiler.is_compiling
_C = torch._C
_functorch_active = getattr(_C, "_are_functorch_transforms_active", lambda: False)
_dispatch_modes = getattr(_C, "_len_torch_dispatch_stack", lambda: 0)
_function_modes = getattr(_C, "_is_torch_function_mode_enabled", lambda: False)
_forward_impl = _ops.forward_impl
_eager_apply = _ops.eager_apply
# The eager ops' C++ callables themselves: OpOverload.__call__ only forwards to its _op, one Python frame (~0.5 us on
# a slow host) that the host-bound batch-1 calls feel. Both call paths check for modes and tracing first.
_eager_op = getattr(_ops.eager_op, "_op", _ops.eager_op)
_eager_op_cuda = _ops.eager_op_cuda
_eager_cached_op = getattr(_ops.eager_cached_op, "_op", _ops.eager_cached_op)
_op = torch.ops.convt1d.conv_transpose1d.default
_fwd_function = _ops.fwd_call
_fwad = torch.autograd.forward_ad  # _current_level >= 0 while a dual level is open
_int = int


def _single(v, name: str):
    """int or 1-element tuple/list -> int, with PyTorch's messages otherwise."""
    if isinstance(v, (int, torch.SymInt)) and not isinstance(v, bool):
        return v
    if isinstance(v, (tuple, list, torch.Size)):
        if len(v) == 1 and isinstance(v[0], (int, torch.SymInt)) and not isinstance(v[0], bool):
            return v[0]
        if all(isinstance(e, (int, torch.SymInt)) for e in v):
            raise RuntimeError(
                f"expected {name} to be a single integer value or a list of 1 values to match the "
                f"convolution dimensions, but got {name}={list(v)}")
    raise TypeError(f"conv_transpose1d(): argument '{name}' must be tuple of ints, not "
                    f"{type(v).__name__}")


def _type_str(t: Tensor) -> str:
    return t.type() if t.device.type in ("cpu", "cuda") else f"{t.dtype} on {t.device}"


def _check_args(input, weight, bias, groups):
    if not isinstance(input, _Tensor):
        raise TypeError(f"conv_transpose1d(): argument 'input' must be Tensor, not {type(input).__name__}")
    if not isinstance(weight, _Tensor):
        raise TypeError(f"conv_transpose1d(): argument 'weight' must be Tensor, not {type(weight).__name__}")
    if bias is not None and not isinstance(bias, _Tensor):
        raise TypeError(f"conv_transpose1d(): argument 'bias' must be Tensor, not {type(bias).__name__}")
    if isinstance(groups, bool) or not isinstance(groups, (int, torch.SymInt)):
        raise TypeError(f"conv_transpose1d(): argument 'groups' must be int, not {type(groups).__name__}")
    nd = input.dim()
    if nd not in (2, 3):
        raise RuntimeError("Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d, but got "
                           f"input of size: {list(input.shape)}")
    if weight.dim() != 3:
        raise RuntimeError(
            f"Expected 3-dimensional weight (in_channels, out_channels/groups, kernel_size) for "
            f"conv_transpose1d, but got weight of size {list(weight.shape)}")
    if input.dtype != weight.dtype or input.device != weight.device:
        raise RuntimeError(f"Input type ({_type_str(input)}) and weight type ({_type_str(weight)}) "
                           "should be the same")
    if bias is not None and (input.dtype != bias.dtype or input.device != bias.device):
        raise RuntimeError(f"Input type ({_type_str(input)}) and bias type ({_type_str(bias)}) "
                           "should be the same")
    if input.dtype not in _ops.DTYPES:
        raise _lib.Convt1dError(
            f"convt1d supports float32, float16, bfloat16 and float64 tensors, got {input.dtype}",
            _lib.NOT_SUPPORTED)
    cin = input.shape[nd - 2]
    if weight.shape[0] != cin:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected input{list(input.shape)} "
            f"to have {weight.shape[0]} channels, but got {cin} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[1] * groups):
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected bias to be 1-dimensional "
            f"with {weight.shape[1] * groups} elements, but got bias of size {list(bias.shape)} instead")


def _plain_no_grad_cuda(input, weight, bias) -> bool:
    """Plain CUDA tensors in plain eager mode (no autocast, modes, transforms, tracing, forward-mode AD) and no
    gradient to record: where a weight-cache forward (ConvTranspose1d.cache_packed_weights) may serve the call."""
    return (type(input) in _PLAIN and type(weight) in _PLAIN and (bias is None or type(bias) in _PLAIN)
            and input.is_cuda and not _is_compiling()
            and not (_grad_enabled() and (input.requires_grad or weight.requires_grad
                                          or (bias is not None and bias.requires_grad)))
            and not _autocast_enabled("cuda") and _fwad._current_level < 0
            and not _dispatch_modes() and not _function_modes() and not _functorch_active())


def _conv_transpose1d_cached(input, weight, bias, stride: int, padding: int, output_padding: int, groups: int,
                             dilation: int, cache) -> Tensor:
    """conv_transpose1d (int parameters) with the CUDA forward's packed weights kept in cache (a _lib.WeightCache
    for this weight, which the caller clears when the weight changes), for a call _plain_no_grad_cuda accepts and
    a contiguous weight (a copy would be a new tensor, and a new cache entry, on every call). The C++ op first, as
    conv_transpose1d takes the eager op: a refused call is re-run below, which raises PyTorch's messages."""
    if _eager_cached_op is not None:
        try:
            return _eager_cached_op(input, weight, bias, stride, padding, output_padding, groups, dilation,
                                    cache.handle)
        except (RuntimeError, TypeError):
            pass
    _check_args(input, weight, bias, groups)
    unbatched = input.dim() == 2
    y = _forward_impl(input.unsqueeze(0) if unbatched else input, weight, bias, stride, padding, output_padding,
                      groups, dilation, cache)
    return y.squeeze(0) if unbatched else y


def _eager_cpp(input, weight, bias, stride, padding, output_padding, groups, dilation):
    """y from the C++ eager op, or None where it does not serve (not built for this torch, CUDA tensors and a
    CPU-only build) or a C call failed: the Python path then re-runs the call and raises the library's own
    exception types and messages, at no cost to the calls that succeed."""
    if _eager_op is None or (input.is_cuda and not _eager_op_cuda):
        return None
    try:
        return _eager_op(input, weight, bias, stride, padding, output_padding, groups, dilation)
    except RuntimeError:
        return None


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """Same signature and semantics as torch.nn.functional.conv_transpose1d, computed by convt1d.

    input (N, C_in, L_in) or unbatched (C_in, L_in); weight (C_in, C_out/groups, K); bias (C_out,).
    float32/float16/bfloat16/float64 on CPU or CUDA. Differentiable (twice), torch.compile-able,
    autocast-aware. Parameter rules and the output length come from the C core.
    """
    # First, for plain tensors in plain eager mode: the C++ eager op, unchecked. It refuses everything the full path
    # below refuses (operand dims, dtypes, devices, channels, bias, the C core's parameter rules) and autocast, and
    # takes unbatched input; a refused call is re-run on the full path, which raises PyTorch's messages and the
    # library's exception types. The ints must be ints (the op's schema would take a bool). Saves ~2-3 us per call
    # here, 3-4x that on a slower host. _is_compiling() comes first so that dynamo never traces the mode queries.
    if (_eager_op is not None and not _is_compiling() and type(input) in _PLAIN and type(weight) in _PLAIN
            and (bias is None or type(bias) in _PLAIN) and type(stride) is _int and type(padding) is _int
            and type(output_padding) is _int and type(groups) is _int and type(dilation) is _int
            and _fwad._current_level < 0 and not _dispatch_modes() and not _function_modes()
            and not _functorch_active()):
        try:
            return _eager_op(input, weight, bias, stride, padding, output_padding, groups, dilation)
        except (RuntimeError, TypeError):
            refused = True  # the same call would be refused again below
    else:
        refused = False
    stride = _single(stride, "stride")
    padding = _single(padding, "padding")
    output_padding = _single(output_padding, "output_padding")
    dilation = _single(dilation, "dilation")
    _check_args(input, weight, bias, groups)
    unbatched = input.dim() == 2
    if unbatched:
        input = input.unsqueeze(0)
    # Eager fast path: plain tensors and nothing else to record (autocast, modes, transforms,
    # tracing): the C++ op (src/torch: kernel and autograd node in C++) where it is built for this
    # torch, else the kernel directly or through one autograd.Function when a gradient is needed;
    # either skips the dispatcher round trips of the convt1d:: ops. _is_compiling() comes first so
    # that dynamo never traces the mode queries.
    if (not _is_compiling() and type(input) in _PLAIN and type(weight) in _PLAIN
            and (bias is None or type(bias) in _PLAIN)
            and (input.is_cuda or input.is_cpu)
            and not _autocast_enabled("cuda" if input.is_cuda else "cpu")
            and not _dispatch_modes() and not _function_modes() and not _functorch_active()):
        # Dual tensors (forward-mode AD) need the Python Function, whose jvp the C++ node lacks.
        fwd_ad = _fwad._current_level >= 0
        y = None if fwd_ad or refused else _eager_cpp(input, weight, bias, stride, padding, output_padding, groups,
                                                      dilation)
        if y is None:
            if fwd_ad or (_grad_enabled() and (input.requires_grad or weight.requires_grad
                                               or (bias is not None and bias.requires_grad))):
                y = _eager_apply(input, weight, bias, (stride, padding, output_padding, groups, dilation))
            else:
                y = _forward_impl(input, weight, bias, stride, padding, output_padding, groups, dilation)
    elif not _is_compiling() and _functorch_active():
        # torch.func transforms take the op's autograd.Function only when applied from Python (it carries the
        # backward, the jvp and a generated vmap rule).
        y = _fwd_function(input, weight, bias, stride, padding, output_padding, groups, dilation)
    else:
        y = _op(input, weight, bias, stride, padding, output_padding, groups, dilation)
    return y.squeeze(0) if unbatched else y
