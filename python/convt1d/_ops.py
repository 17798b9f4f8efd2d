"""The `convt1d::` PyTorch operators: schema, CPU/CUDA kernels (ctypes into the C library), fake
(shape) kernels, autograd (double backward, forward-mode AD, torch.func), vmap rules and autocast.

Low-level torch.library API on purpose: the kernels are plain Python functions registered per dispatch
key, so eager calls pay one dispatcher hop and torch.compile sees an opaque op with a fake kernel.
"""
from __future__ import annotations

import torch

from . import _lib

__all__ = ["forward_impl", "backward_impl", "EagerFunction", "eager_apply", "eager_op", "eager_op_cuda",
           "eager_cached_op", "fwd_call", "DTYPES"]

DTYPES = {torch.float32: _lib.F32, torch.float16: _lib.F16, torch.bfloat16: _lib.BF16,
          torch.float64: _lib.F64}

_c = _lib.lib
_fwd_cpu = _c.convt1d_forward_cpu
_bwd_in_cpu = _c.convt1d_backward_input_cpu
_bwd_w_cpu = _c.convt1d_backward_weight_cpu
_bwd_b_cpu = _c.convt1d_backward_bias_cpu
_fwd_cuda = _c.convt1d_forward_cuda
_fwd_cuda_cached = _c.convt1d_forward_cuda_cached
_bwd_cuda = _c.convt1d_backward_cuda
_params = _lib.params
_fwad = torch.autograd.forward_ad  # _current_level >= 0 while a dual level is open
_num_threads = torch.get_num_threads
_cudnn = torch.backends.cudnn
try:  # raw cudaStream_t of the current stream without building a torch.cuda.Stream (~1 us saved)
    _raw_stream = torch._C._cuda_getCurrentRawStream
except AttributeError:  # pragma: no cover
    def _raw_stream(index):
        return torch.cuda.current_stream(index).cuda_stream


def _cout(w, groups):
    # groups < 1 must reach the C core as such so that its message names groups, not C_out.
    return w.shape[1] * groups if groups >= 1 else w.shape[1]


def _dtype_code(t: torch.Tensor) -> int:
    code = DTYPES.get(t.dtype)
    if code is None:
        raise _lib.Convt1dError(
            f"convt1d supports float32, float16, bfloat16 and float64 tensors, got {t.dtype}",
            _lib.NOT_SUPPORTED)
    return code


# The getters behind torch.backends.cudnn.allow_tf32 and torch.cuda.current_device(), without their
# Python wrappers (a fraction of a microsecond each, on every call).
_get_allow_tf32 = getattr(torch._C, "_get_cudnn_allow_tf32", None) or (lambda: _cudnn.allow_tf32)
_current_device = getattr(torch._C, "_cuda_getDevice", None) or (lambda: torch.cuda.current_device())


def _math() -> int:
    # Read at every call, like cuDNN does: TF32 only when PyTorch allows it for convolutions.
    return _lib.MATH_ALLOW_TF32 if _get_allow_tf32() else _lib.MATH_STRICT_FP32


class _DeviceGuard:
    """Makes x's CUDA device current for the C call (the library launches on the current device)."""
    __slots__ = ("idx", "prev")

    def __init__(self, idx: int):
        self.idx = idx

    def __enter__(self):
        self.prev = torch.cuda.current_device()
        if self.prev != self.idx:
            torch.cuda.set_device(self.idx)

    def __exit__(self, *exc):
        if self.prev != self.idx:
            torch.cuda.set_device(self.prev)
        return False


def _same_cuda_device(*ts):
    idx = ts[0].get_device()
    for t in ts[1:]:
        if t is not None and t.get_device() != idx:
            raise _lib.Convt1dError(
                f"Expected all tensors to be on the same device, but found cuda:{idx} and {t.device}",
                _lib.INVALID_VALUE)
    return idx


# ------------------------------------------------------------------------------------ real kernels
def _forward(x, w, b, stride, padding, output_padding, groups, dilation, cache=None):
    """(y, p, dt): y = conv_transpose1d(x, w, b), and what a backward of the same call needs: the validated Params
    and the dtype code. cache: a _lib.WeightCache for w (CUDA; convt1d_forward_cuda_cached)."""
    if not x.is_contiguous():
        x = x.contiguous()
    if not w.is_contiguous():
        w = w.contiguous()
    if b is not None and not b.is_contiguous():
        b = b.contiguous()
    n, cin, length = x.shape
    if w.shape[0] != cin:  # the C core sees only the sizes it is given
        raise _lib.Convt1dError(f"weight has {w.shape[0]} input channels, input has {cin}", _lib.INVALID_VALUE)
    cout = _cout(w, groups)
    p, lout = _params((n, cin, cout, length, w.shape[2], stride, padding, output_padding, dilation,
                       groups))
    dt = _dtype_code(x)
    y = torch.empty((n, cout, lout), dtype=x.dtype, device=x.device)
    bp = None if b is None else b.data_ptr()
    if x.is_cuda:
        idx = _same_cuda_device(x, w, b)
        args = (p, dt, _math(), x.data_ptr(), w.data_ptr(), bp, y.data_ptr())
        fwd, args = (_fwd_cuda, args) if cache is None else (_fwd_cuda_cached, args + (cache.handle,))
        if idx == _current_device():
            st = fwd(*args, _raw_stream(idx))
        else:
            with _DeviceGuard(idx):
                st = fwd(*args, _raw_stream(idx))
    else:
        st = _fwd_cpu(p, dt, x.data_ptr(), w.data_ptr(), bp, y.data_ptr(), _num_threads())
    if st:
        _lib.raise_for(st, "convt1d forward")
    return y, p, dt


def forward_impl(x, w, b, stride, padding, output_padding, groups, dilation, cache=None):
    """y = conv_transpose1d(x, w, b) for contiguous-able 3-D x on CPU or CUDA (no autograd); cache: see _forward."""
    return _forward(x, w, b, stride, padding, output_padding, groups, dilation, cache)[0]


def _run_backward(gy, x, w, p, dt, mask):
    """(grad_input, grad_weight, grad_bias), None where mask says not wanted, for contiguous gy, x, w of one
    dtype and device whose shapes p (validated Params) describes."""
    gx = torch.empty_like(x) if mask[0] else None
    gw = torch.empty_like(w) if mask[1] else None
    gb = gy.new_empty(p.out_channels) if mask[2] else None
    if x.is_cuda:
        idx = x.get_device()
        args = (p, dt, _math(), gy.data_ptr(), x.data_ptr(), w.data_ptr(),
                None if gx is None else gx.data_ptr(), None if gw is None else gw.data_ptr(),
                None if gb is None else gb.data_ptr(), _raw_stream(idx))
        if idx == _current_device():
            st = _bwd_cuda(*args)
        else:
            with _DeviceGuard(idx):
                st = _bwd_cuda(*args)
        if st:
            _lib.raise_for(st, "convt1d backward")
    else:
        nt = _num_threads()
        if mask[0]:
            _lib.check(_bwd_in_cpu(p, dt, gy.data_ptr(), w.data_ptr(), gx.data_ptr(), nt),
                       "convt1d backward (input)")
        if mask[1]:
            _lib.check(_bwd_w_cpu(p, dt, gy.data_ptr(), x.data_ptr(), gw.data_ptr(), nt),
                       "convt1d backward (weight)")
        if mask[2]:
            _lib.check(_bwd_b_cpu(p, dt, gy.data_ptr(), gb.data_ptr(), nt), "convt1d backward (bias)")
    return gx, gw, gb


def _backward(gy, x, w, conv, mask):
    """(grad_input, grad_weight, grad_bias) for conv = (stride, padding, output_padding, groups,
    dilation); an entry not asked for in mask is None. On CUDA one C call computes all of them (one
    validation, grad_w's scratch taken stream-ordered by the library): the training step's backward is
    latency-bound on small layers, and every host microsecond shows there."""
    if not gy.is_contiguous():
        gy = gy.contiguous()
    if not x.is_contiguous():
        x = x.contiguous()
    if not w.is_contiguous():
        w = w.contiguous()
    stride, padding, output_padding, groups, dilation = conv
    n, cin, length = x.shape
    cout = _cout(w, groups)
    p, lout = _params((n, cin, cout, length, w.shape[2], stride, padding, output_padding, dilation,
                       groups))
    if gy.shape != (n, cout, lout):
        raise _lib.Convt1dError(
            f"grad_output has shape {list(gy.shape)}, expected {[n, cout, lout]}", _lib.INVALID_VALUE)
    if not (gy.dtype == x.dtype == w.dtype):
        raise _lib.Convt1dError(
            f"grad_output ({gy.dtype}), input ({x.dtype}) and weight ({w.dtype}) must share one dtype",
            _lib.INVALID_VALUE)
    dt = _dtype_code(x)
    if x.is_cuda:
        _same_cuda_device(gy, x, w)
    return _run_backward(gy, x, w, p, dt, mask)


def backward_impl(gy, x, w, stride, padding, output_padding, groups, dilation, output_mask):
    """The backward op's kernel: (grad_input, grad_weight, grad_bias); an entry not asked for in
    output_mask is an empty tensor (the schema returns three tensors)."""
    gx, gw, gb = _backward(gy, x, w, (stride, padding, output_padding, groups, dilation), output_mask)
    return (x.new_empty(0) if gx is None else gx, w.new_empty(0) if gw is None else gw,
            gy.new_empty(0) if gb is None else gb)


# ------------------------------------------------------------------------------------ registration
_LIB = torch.library.Library("convt1d", "DEF")
_LIB.define(
    "conv_transpose1d(Tensor input, Tensor weight, Tensor? bias, int stride, int padding, "
    "int output_padding, int groups, int dilation) -> Tensor")
_LIB.define(
    "conv_transpose1d_backward(Tensor grad_output, Tensor input, Tensor weight, int stride, "
    "int padding, int output_padding, int groups, int dilation, bool[3] output_mask) "
    "-> (Tensor, Tensor, Tensor)")


# --- the C++ library (src/torch/convt1d_torch.cpp): the eager op convt1d_eager::conv_transpose1d (forward and autograd
# node in C++, taken by functional.py for plain tensors in eager mode) and the CPU / CUDA kernels of the two ops above.
# Loaded from beside the C library when it was built for this very torch; CONVT1D_TORCH_OP=0 keeps the Python paths
# (EagerFunction, and forward_impl / backward_impl as the ops' kernels).
def _load_cpp():
    """(eager op, built with CUDA: it registered the CUDA kernels too), or (None, False) where the C++ library is not
    used."""
    import os
    if os.environ.get("CONVT1D_TORCH_OP", "1") == "0":
        return None, False
    path = os.path.join(os.path.dirname(_lib.library_path), "libconvt1d_torch.so")
    try:
        with open(path[:-3] + ".torch_version") as fh:
            if fh.read().strip() != torch.__version__:
                return None, False  # built for another torch: its ABI may differ
        torch.ops.load_library(path)
        ns = torch.ops.convt1d_eager
        return ns.conv_transpose1d.default, bool(ns.cuda_enabled())
    except (OSError, RuntimeError, AttributeError):
        return None, False


eager_op, _cpp_cuda = _load_cpp()
eager_op_cuda = _cpp_cuda and _lib.has_cuda()  # the eager op serves CUDA tensors
# The cached forward (ConvTranspose1d.cache_packed_weights) in C++, where the eager op serves CUDA tensors.
eager_cached_op = torch.ops.convt1d_eager.conv_transpose1d_cached.default if eager_op_cuda else None
# The ops' kernels: C++ where the library above registered them (CPU always, CUDA when built with it), else Python.
for _key in ("CPU", "CUDA"):
    if eager_op is None or (_key == "CUDA" and not _cpp_cuda):
        _LIB.impl("conv_transpose1d", forward_impl, _key)
        _LIB.impl("conv_transpose1d_backward", backward_impl, _key)

_op_fwd = torch.ops.convt1d.conv_transpose1d.default
_op_bwd = torch.ops.convt1d.conv_transpose1d_backward.default
_functorch_active = getattr(torch._C, "_are_functorch_transforms_active", lambda: False)


def fwd_call(*args):
    """The forward op; under torch.func transforms its autograd.Function itself (functorch takes a Function only when
    it is applied from Python, not from inside an op's Autograd kernel)."""
    return _FwdOpFunction.apply(*args) if _functorch_active() else _op_fwd(*args)


def _bwd_call(*args):
    return _BwdOpFunction.apply(*args) if _functorch_active() else _op_bwd(*args)


def _is_sym(v) -> bool:
    return isinstance(v, torch.SymInt)


def _concrete(v) -> int:
    # Channel counts and kernel size are specialized (guarded) under dynamic shapes; lengths are not.
    return int(v)


def _sym_output_length(n, cin, cout, length, k, stride, padding, output_padding, dilation, groups):
    """L_out from the C core, also when L_in is symbolic (torch.compile with dynamic shapes)."""
    cin, cout, k = _concrete(cin), _concrete(cout), _concrete(k)
    stride, padding, output_padding = _concrete(stride), _concrete(padding), _concrete(output_padding)
    dilation, groups = _concrete(dilation), _concrete(groups)
    nb = 1 if _is_sym(n) else n
    if not _is_sym(length):
        return _params((nb, cin, cout, length, k, stride, padding, output_padding, dilation, groups))[1]
    # L_out is affine in L_in with slope `stride` (the definition); take the intercept from the C core
    # at a large concrete length so that every other rule is still checked by C.
    ref = 1 << 20
    lref = _params((1, cin, cout, ref, k, stride, padding, output_padding, dilation, groups))[1]
    lout = stride * length + (lref - stride * ref)
    torch._check(length >= 1, lambda: "input length (L_in) must be >= 1")
    torch._check(lout >= 1, lambda: "output length must be >= 1 (output size is too small)")
    return lout


@torch.library.register_fake("convt1d::conv_transpose1d", lib=_LIB)
def _fwd_fake(x, w, b, stride, padding, output_padding, groups, dilation):
    torch._check(x.dim() == 3 and w.dim() == 3, lambda: "convt1d::conv_transpose1d takes 3-D input and weight")
    n, cin, length = x.shape
    cout = _cout(w, groups)
    lout = _sym_output_length(n, cin, cout, length, w.shape[2], stride, padding, output_padding,
                              dilation, groups)
    return x.new_empty((n, cout, lout))


@torch.library.register_fake("convt1d::conv_transpose1d_backward", lib=_LIB)
def _bwd_fake(gy, x, w, stride, padding, output_padding, groups, dilation, output_mask):
    cout = _cout(w, groups)
    return (x.new_empty(x.shape) if output_mask[0] else x.new_empty(0),
            w.new_empty(w.shape) if output_mask[1] else w.new_empty(0),
            gy.new_empty(cout) if output_mask[2] else gy.new_empty(0))


# --- autograd of the forward op: one backward-op call computes exactly the gradients needed.
def _fwd_setup(ctx, inputs, output):
    x, w, b, stride, padding, output_padding, groups, dilation = inputs
    ctx.conv = (stride, padding, output_padding, groups, dilation)
    ctx.save_for_backward(x, w)  # references only (as PyTorch's convolution does), no copies


def _fwd_backward(ctx, gy):
    x, w = ctx.saved_tensors
    need = ctx.needs_input_grad
    mask = [bool(need[0]), bool(need[1]), bool(need[2])]
    nones = (None,) * 5
    if not any(mask) or gy is None:
        return (None, None, None) + nones
    stride, padding, output_padding, groups, dilation = ctx.conv
    gx, gw, gb = _bwd_call(gy, x, w, stride, padding, output_padding, groups, dilation, mask)
    return (gx if mask[0] else None, gw if mask[1] else None, gb if mask[2] else None) + nones


def _jvp_forward(x, w, dx, dw, db, conv, y_shape):
    """Forward-mode AD of y = T(x, w) + b: T is linear in each operand, so dy = T(dx, w) + T(x, dw) + db. Through the
    op, whose own autograd serves a nested transform."""
    dy = None
    if dx is not None:
        dy = fwd_call(dx, w, None, *conv)
    if dw is not None:
        t = fwd_call(x, dw, db, *conv)
        dy, db = (t if dy is None else dy + t), None
    if db is not None:
        t = db.view(1, -1, 1).expand(y_shape)
        dy = t.clone() if dy is None else dy + t
    return dy


def _needs_autograd(args) -> bool:
    # A gradient to record, or an open dual level (forward AD; torch.func.jvp opens one too).
    return (torch.is_grad_enabled() and torch._C._any_requires_grad(*args)) or _fwad._current_level >= 0


class _FwdOpFunction(torch.autograd.Function):
    """The forward op's Autograd kernel: backward by one backward-op call, forward-mode AD (jvp) through the op, vmap
    by torch's generated rule. setup_context style, so that torch.func transforms take it (torch.library's
    register_autograd builds a Function that torch.func.grad refuses and whose tangent under torch.func.jvp came back
    wrong: the op had no forward formula)."""
    generate_vmap_rule = True

    @staticmethod
    def forward(x, w, b, stride, padding, output_padding, groups, dilation):
        with torch._C._AutoDispatchBelowAutograd():
            return _op_fwd(x, w, b, stride, padding, output_padding, groups, dilation)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _fwd_setup(ctx, inputs, output)
        if _fwad._current_level >= 0:
            ctx.save_for_forward(inputs[0], inputs[1])
            ctx.y_shape = output.shape

    @staticmethod
    def backward(ctx, gy):
        return _fwd_backward(ctx, gy)

    @staticmethod
    def jvp(ctx, dx, dw, db, *_):
        x, w = ctx.saved_tensors
        return _jvp_forward(x, w, dx, dw, db, ctx.conv, ctx.y_shape)


def _fwd_autograd(*args):
    if _needs_autograd(args):
        return _FwdOpFunction.apply(*args)
    with torch._C._AutoDispatchBelowAutograd():
        return _op_fwd(*args)


_LIB.impl("conv_transpose1d", _fwd_autograd, "Autograd")


class EagerFunction(torch.autograd.Function):
    """Same autograd as the registered op, for eager calls on plain tensors: one autograd.Function
    and direct kernel calls instead of dispatcher round trips (~10x less Python per call). When the
    graph of the backward is built (create_graph=True) it goes through the backward op, whose own
    autograd gives double backward. conv = (stride, padding, output_padding, groups, dilation) travels
    as one argument: autograd's apply pays per argument."""

    @staticmethod
    def forward(ctx, x, w, b, conv):
        y, p, dt = _forward(x, w, b, *conv)
        ctx.conv, ctx.p, ctx.dt = conv, p, dt
        # The inputs themselves (not contiguous copies), so that a double backward reaches them.
        ctx.save_for_backward(x, w)
        if _fwad._current_level >= 0:  # a dual level is open: jvp may follow
            ctx.save_for_forward(x, w)
            ctx.y_shape = y.shape
        return y

    @staticmethod
    def jvp(ctx, dx, dw, db, _conv):
        """Forward-mode AD (functional.py routes dual tensors here)."""
        x, w = ctx.saved_tensors
        return _jvp_forward(x, w, dx, dw, db, ctx.conv, ctx.y_shape)

    @staticmethod
    def backward(ctx, gy):
        x, w = ctx.saved_tensors
        need = ctx.needs_input_grad
        mask = (need[0], need[1], need[2])
        if torch.is_grad_enabled():
            gx, gw, gb = _op_bwd(gy, x, w, *ctx.conv, list(mask))
            return (gx if mask[0] else None, gw if mask[1] else None, gb if mask[2] else None, None)
        # Autograd hands over a gy of y's shape, dtype and device; x and w were checked with p in forward.
        gx, gw, gb = _run_backward(gy if gy.is_contiguous() else gy.contiguous(),
                                   x if x.is_contiguous() else x.contiguous(),
                                   w if w.is_contiguous() else w.contiguous(), ctx.p, ctx.dt, mask)
        return gx, gw, gb, None


# Function.apply's Python wrapper binds no defaults here (no setup_context) and only unwraps dead
# functorch wrappers, which the eager fast path rules out (functorch inactive, plain tensor types;
# a dead wrapper is unwrapped below all the same): calling the C apply directly saves microseconds.
_apply_c = super(torch.autograd.Function, EagerFunction).apply
_unwrap_dead = getattr(getattr(torch._C, "_functorch", None), "unwrap_if_dead", None)


def eager_apply(x, w, b, conv):
    if _unwrap_dead is not None:
        x, w = _unwrap_dead(x), _unwrap_dead(w)
        if b is not None:
            b = _unwrap_dead(b)
    return _apply_c(x, w, b, conv)


# --- autograd of the backward op (double backward), composed from the two ops.
# With gx = Bx(gy, w), gw = Bw(gy, x), gb = sum(gy) and upstream grads (ggx, ggw, ggb):
#   d/d gy = T(ggx, w) + T(x, ggw) + ggb        (T = conv_transpose1d, the adjoint of Bx and Bw)
#   d/d x  = Bx(gy, ggw),   d/d w = Bw(gy, ggx)  (one backward-op call with input=ggx, weight=ggw)
def _bwd_setup(ctx, inputs, output):
    gy, x, w, stride, padding, output_padding, groups, dilation, mask = inputs
    ctx.conv = (stride, padding, output_padding, groups, dilation)
    ctx.mask = tuple(bool(m) for m in mask)
    ctx.save_for_backward(gy, x, w)
    ctx.set_materialize_grads(False)


def _bwd_backward(ctx, ggx, ggw, ggb):
    gy, x, w = ctx.saved_tensors
    stride, padding, output_padding, groups, dilation = ctx.conv
    mask = ctx.mask
    # Gradients of outputs that were placeholders carry no information.
    ggx = ggx if mask[0] else None
    ggw = ggw if mask[1] else None
    ggb = ggb if mask[2] else None
    need_gy, need_x, need_w = ctx.needs_input_grad[:3]
    d_gy = d_x = d_w = None
    if need_gy:
        if ggx is not None:
            d_gy = fwd_call(ggx, w, None, stride, padding, output_padding, groups, dilation)
        if ggw is not None:
            t = fwd_call(x, ggw, ggb, stride, padding, output_padding, groups, dilation)
            d_gy = t if d_gy is None else d_gy + t
            ggb = None
        if ggb is not None:
            t = ggb.view(1, -1, 1).expand(gy.shape)
            d_gy = t.clone() if d_gy is None else d_gy + t
    want_x = bool(need_x and ggw is not None)
    want_w = bool(need_w and ggx is not None)
    if want_x or want_w:
        xin = ggx if ggx is not None else x
        win = ggw if ggw is not None else w
        gx2, gw2, _ = _bwd_call(gy, xin, win, stride, padding, output_padding, groups, dilation,
                              [want_x, want_w, False])
        d_x = gx2 if want_x else None
        d_w = gw2 if want_w else None
    if need_x and d_x is None:
        d_x = torch.zeros_like(x)
    if need_w and d_w is None:
        d_w = torch.zeros_like(w)
    if need_gy and d_gy is None:
        d_gy = torch.zeros_like(gy)
    return d_gy, d_x, d_w, None, None, None, None, None, None


class _BwdOpFunction(torch.autograd.Function):
    """The backward op's Autograd kernel (double backward above; setup_context style for torch.func, as the forward's).
    Forward-mode AD: the op is bilinear, gx = Bx(gy, w), gw = Bw(gy, x), gb = sum(gy), so
    d gx = Bx(dgy, w) + Bx(gy, dw), d gw = Bw(dgy, x) + Bw(gy, dx), d gb = sum(dgy) (forward-over-reverse:
    Hessian-vector products)."""
    generate_vmap_rule = True

    @staticmethod
    def forward(gy, x, w, stride, padding, output_padding, groups, dilation, mask):
        with torch._C._AutoDispatchBelowAutograd():
            return _op_bwd(gy, x, w, stride, padding, output_padding, groups, dilation, mask)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _bwd_setup(ctx, inputs, output)
        if _fwad._current_level >= 0:
            ctx.save_for_forward(*inputs[:3])
            ctx.out_shapes = tuple(o.shape for o in output)

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        return _bwd_backward(ctx, ggx, ggw, ggb)

    @staticmethod
    def jvp(ctx, dgy, dx, dw, *_):
        gy, x, w = ctx.saved_tensors
        mask = list(ctx.mask)
        outs = [None, None, None]

        def add(i, t):
            outs[i] = t if outs[i] is None else outs[i] + t
        if dgy is not None:
            for i, t in enumerate(_bwd_call(dgy, x, w, *ctx.conv, mask)):
                if mask[i]:
                    add(i, t)
        want = [mask[0] and dw is not None, mask[1] and dx is not None, False]
        if want[0] or want[1]:
            t = _bwd_call(gy, x if dx is None else dx, w if dw is None else dw, *ctx.conv, want)
            for i in (0, 1):
                if want[i]:
                    add(i, t[i])
        # Outputs not asked for are empty placeholders; those asked for with no tangent reaching them are zeros.
        ref = (x, w, gy)
        return tuple(o if o is not None else ref[i].new_zeros(ctx.out_shapes[i]) for i, o in enumerate(outs))


def _bwd_autograd(*args):
    if _needs_autograd(args[:3]):
        return _BwdOpFunction.apply(*args)
    with torch._C._AutoDispatchBelowAutograd():
        return _op_bwd(*args)


_LIB.impl("conv_transpose1d_backward", _bwd_autograd, "Autograd")


# --- vmap (torch.func.vmap, and jacrev / per-sample gradients built on it): one call for the whole vmapped batch
# instead of the per-sample fallback loop. The vmapped dimension folds into the batch where only the activations
# carry it; else into the groups: sample b's channels sit side by side with the others', and groups*B groups keep
# the samples apart (x (N, B*C_in, L), w (B*C_in, C_out/g, K), y (N, B*C_out, L_out)); the backward op's gradients
# come out per sample the same way (grad_weight (B*C_in, ...) is the per-sample weight gradient).
def _moved(t, d, bsz):
    """t with the vmapped dimension first (expanded where t has none)."""
    return t.movedim(d, 0) if d is not None else t.expand(bsz, *t.shape)


def _fwd_vmap(info, in_dims, x, w, b, stride, padding, output_padding, groups, dilation):
    xd, wd, bd = in_dims[:3]
    bsz = info.batch_size
    if wd is None and bd is None:
        xm = x.movedim(xd, 0)
        y = _op_fwd(xm.reshape(-1, *xm.shape[2:]), w, b, stride, padding, output_padding, groups, dilation)
        return y.view(bsz, xm.shape[1], *y.shape[1:]), 0
    xm, wm = _moved(x, xd, bsz), _moved(w, wd, bsz)
    n, cin, length = xm.shape[1:]
    xg = xm.transpose(0, 1).reshape(n, bsz * cin, length)
    bg = None if b is None else _moved(b, bd, bsz).reshape(-1)
    y = _op_fwd(xg, wm.reshape(bsz * cin, *wm.shape[2:]), bg, stride, padding, output_padding, groups * bsz,
                dilation)
    return y.view(n, bsz, -1, y.shape[-1]).transpose(0, 1), 0


def _bwd_vmap(info, in_dims, gy, x, w, stride, padding, output_padding, groups, dilation, mask):
    bsz = info.batch_size
    gym, xm, wm = _moved(gy, in_dims[0], bsz), _moved(x, in_dims[1], bsz), _moved(w, in_dims[2], bsz)
    n, cin, length = xm.shape[1:]
    gx, gw, gb = _op_bwd(gym.transpose(0, 1).reshape(n, -1, gym.shape[-1]),
                         xm.transpose(0, 1).reshape(n, bsz * cin, length), wm.reshape(bsz * cin, *wm.shape[2:]),
                         stride, padding, output_padding, groups * bsz, dilation, mask)
    # gradients not asked for are the schema's empty placeholders: not batched
    return ((gx.view(n, bsz, cin, length).transpose(0, 1) if mask[0] else gx,
             gw.view(bsz, *wm.shape[1:]) if mask[1] else gw,
             gb.view(bsz, -1) if mask[2] else gb),
            (0 if mask[0] else None, 0 if mask[1] else None, 0 if mask[2] else None))


torch.library.register_vmap("convt1d::conv_transpose1d", _fwd_vmap, lib=_LIB)
torch.library.register_vmap("convt1d::conv_transpose1d_backward", _bwd_vmap, lib=_LIB)


# --- autocast: like PyTorch's conv_transpose1d (lower_precision_fp): floating tensors other than
# float64 on the autocast device are cast to the autocast dtype read at call time.
def _register_autocast(device_type: str) -> None:
    key_name = "Autocast" + torch._C._dispatch_key_for_device(device_type)
    key = getattr(torch._C.DispatchKey, key_name)
    keyset = torch._C.DispatchKeySet(key)

    def cast(t):
        if t is not None and t.is_floating_point() and t.device.type == device_type \
                and t.dtype is not torch.float64:
            return t.to(torch.get_autocast_dtype(device_type))
        return t

    def autocast_fwd(x, w, b, *args):
        with torch._C._ExcludeDispatchKeyGuard(keyset):
            return _op_fwd(cast(x), cast(w), cast(b), *args)

    # py_impl serves tracing (torch.compile / make_fx run through the Python dispatcher) ...
    _op_fwd.py_impl(key)(autocast_fwd)
    # ... and the C++-dispatched kernel serves eager calls.
    _LIB.impl("conv_transpose1d", lambda ks, *a: autocast_fwd(*a), key_name, with_keyset=True)


for _dev in ("cpu", "cuda"):
    _register_autocast(_dev)
