"""convt1d.ConvTranspose1d: drop-in for torch.nn.ConvTranspose1d computed by convt1d."""
from __future__ import annotations

from typing import Literal

import torch
from torch import Tensor
from torch.nn.modules.conv import _ConvTransposeNd
from torch.nn.modules.utils import _single

from . import _lib
from .functional import _conv_transpose1d_cached, _plain_no_grad_cuda, conv_transpose1d

__all__ = ["ConvTranspose1d"]


_REF_LENGTH = 1 << 20
_MISSING = object()  # a parameter name absent from the module's parameter dict


@torch.compiler.assume_constant_result
def _min_length_intercept(k: int, stride: int, padding: int, dilation: int) -> int:
    # L_out(output_padding=0) = stride * L_in + c, affine by definition; c comes from the C core
    # (evaluated once at trace time: the arguments are module constants).
    return _lib.output_length(_REF_LENGTH, k, stride, padding, 0, dilation) - stride * _REF_LENGTH


def _padding_for_size_traced(requested, length, k, stride, padding, dilation):
    """output_padding for output_size under torch.compile, where lengths may be symbolic and the
    ctypes call cannot be traced: same rule as convt1d_output_padding_for_size."""
    low = stride * length + _min_length_intercept(k, stride, padding, dilation)
    torch._check(requested >= low, lambda: "requested output_size is smaller than the minimum "
                 "output length (output_padding 0)")
    torch._check(requested <= low + stride - 1, lambda: "requested output_size is larger than the "
                 "maximum output length (output_padding stride - 1)")
    return requested - low


class ConvTranspose1d(_ConvTransposeNd):
    """Same constructor, attributes, parameters, initialization and state_dict as
    torch.nn.ConvTranspose1d (the init machinery is PyTorch's own _ConvTransposeNd, so the RNG is
    consumed identically); forward computes with convt1d. Only padding_mode='zeros' exists."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups: int = 1,
        bias: bool = True,
        dilation=1,
        padding_mode: Literal["zeros", "reflect", "replicate", "circular"] = "zeros",
        device=None,
        dtype=None,
    ) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(
            in_channels, out_channels, _single(kernel_size), _single(stride), _single(padding),
            _single(dilation), True, _single(output_padding), groups, bias, padding_mode,
            **factory_kwargs)

    def _output_padding_for(self, input: Tensor, output_size) -> int:
        if output_size is None:
            return self.output_padding[0]
        has_batch_dim = input.dim() == 3
        non_spatial = 2 if has_batch_dim else 1
        output_size = list(output_size)
        if len(output_size) == non_spatial + 1:
            output_size = output_size[non_spatial:]
        if len(output_size) != 1:
            raise ValueError(
                f"ConvTranspose1D: for {input.dim()}D input, output_size must have 1 or "
                f"{non_spatial + 1} elements (got {len(output_size)})")
        if input.dim() not in (2, 3):
            raise RuntimeError("Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d, "
                               f"but got input of size: {list(input.shape)}")
        args = (output_size[0], input.shape[-1], self.kernel_size[0], self.stride[0],
                self.padding[0], self.dilation[0])
        if torch.compiler.is_compiling():
            return _padding_for_size_traced(*args)
        return _lib.output_padding_for_size(*args)  # the C core's rule and message

    # The packed-weight cache (cache_packed_weights): off by default; the C cache and the weight it was filled for.
    _wcache_on = False
    _wcache = None
    _wcache_key = None

    def cache_packed_weights(self, enabled: bool = True) -> "ConvTranspose1d":
        """Inference on CUDA: keep the forward's packed copy of the weight across calls instead of packing it on
        every call (a pass over the weight: 10-60 us on vocoder layers). Serves calls that record no gradient
        (torch.no_grad / inference_mode, or nothing requires grad), outside autocast and torch.compile; other calls
        compute as without it. The copy is made again when the weight's storage, version counter, dtype or device
        changes (optimizer steps, load_state_dict, .to(), in-place ops). Writes that autograd does not count
        (through `weight.data`, or by other libraries on its memory) are not seen: call clear_weight_cache() after
        them. Holds device memory about the weight's size per layout used. Returns self."""
        self._wcache_on = bool(enabled)
        if not enabled:
            self.clear_weight_cache()
        return self

    def clear_weight_cache(self) -> None:
        """Forget the packed copies (after writing to the weight behind autograd's back) and free their memory."""
        if self._wcache is not None:
            self._wcache.clear()
        self._wcache_key = None

    def __getstate__(self):
        state = dict(super().__getstate__())
        state.pop("_wcache", None)  # device memory: a copy or an unpickled module makes its own
        state.pop("_wcache_key", None)
        return state

    def _cached_forward(self, input: Tensor, output_padding: int, w: Tensor, b: Tensor | None) -> Tensor | None:
        """y through the weight cache, or None where the plain path serves (a gradient to record, CPU tensors,
        autocast, modes, a weight that is not contiguous, ...). Every call the cache may serve goes to the cached op:
        a layer whose forward packs nothing reads no copy there and costs what the plain call does. The checks are
        the host time of a batch-1 vocoder call (Session 31: a learnt per-shape table here cost ~4 us per call on
        the H100's host against the plain call)."""
        if not (_plain_no_grad_cuda(input, w, b) and w.is_contiguous()):
            return None
        try:
            version = w._version
        except RuntimeError:  # an inference tensor has no version counter (it can change only in inference mode)
            version = None
        # A new storage (load_state_dict, .to(), a new dtype or device) has a new address; in-place writes that
        # autograd sees bump the version. The C cache also keys its copies by pointer, dtype and device.
        key = (w.data_ptr(), version, w.dtype)
        if key != self._wcache_key:
            if self._wcache is None:
                self._wcache = _lib.WeightCache()
            else:
                self._wcache.clear()
            self._wcache_key = key
        return _conv_transpose1d_cached(input, w, b, self.stride[0], self.padding[0], output_padding, self.groups,
                                        self.dilation[0], self._wcache)

    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor:
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for ConvTranspose1d")
        output_padding = self.output_padding[0] if output_size is None else self._output_padding_for(input,
                                                                                                      output_size)
        # The weight and bias straight from the parameter dict where they are this class's plain parameters:
        # self.weight goes through nn.Module.__getattr__ (~0.75 us per name on a slow host, against ~0.05 for the
        # dict; the batch-1 vocoder call is host-bound). A subclass, or torch's parametrizations (which swap the
        # instance's class), may define them otherwise, and the old weight_norm hooks take them out of the dict:
        # those read the attributes.
        w = b = _MISSING
        if type(self) is ConvTranspose1d:
            params = self._parameters
            w, b = params.get("weight", _MISSING), params.get("bias", _MISSING)
        if w is _MISSING:
            w = self.weight
        if b is _MISSING:
            b = self.bias
        if self._wcache_on:
            y = self._cached_forward(input, output_padding, w, b)
            if y is not None:
                return y
        return conv_transpose1d(input, w, b, self.stride[0], self.padding[0], output_padding, self.groups,
                                self.dilation[0])
