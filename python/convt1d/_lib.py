"""ctypes binding of include/convt1d.h.

Everything here is plain ctypes: argtypes/restype are set once at load time, the params struct is a
ctypes.Structure, and every non-SUCCESS status becomes an exception carrying convt1d_last_error().
Shape arithmetic (output length, output_padding for a requested size) always comes from the C core;
results are cached per parameter tuple so that the per-call cost is one dict lookup.
"""
from __future__ import annotations

import ctypes
import glob
import os
import sys

__all__ = [
    "Convt1dError", "Convt1dValueError", "Params", "lib", "library_path", "has_cuda",
    "params", "output_length", "output_padding_for_size", "workspace_size", "check",
    "F32", "F16", "BF16", "F64", "MATH_ALLOW_TF32", "MATH_STRICT_FP32", "version",
]

# convt1d_status
SUCCESS, INVALID_VALUE, OVERFLOW, NULL_POINTER, NOT_SUPPORTED, CUDA_ERROR, OUT_OF_MEMORY, INTERNAL = range(8)
# convt1d_dtype
F32, F16, BF16, F64 = range(4)
# convt1d_math
MATH_ALLOW_TF32, MATH_STRICT_FP32 = 0, 1


class Convt1dError(RuntimeError):
    """A convt1d C call failed. A RuntimeError, like PyTorch's own convolution errors."""

    def __init__(self, message: str, status: int = INTERNAL):
        super().__init__(message)
        self.status = status


class Convt1dValueError(Convt1dError, ValueError):
    """A parameter broke a rule (INVALID_VALUE / OVERFLOW): both a RuntimeError and a ValueError."""


class Params(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int64) for name in (
        "batch", "in_channels", "out_channels", "in_length", "kernel_size",
        "stride", "padding", "output_padding", "dilation", "groups")]

    def __repr__(self) -> str:
        return "Params(" + ", ".join(f"{n}={getattr(self, n)}" for n, _ in self._fields_) + ")"


_LIBNAME = {"win32": "convt1d.dll", "darwin": "libconvt1d.dylib"}.get(sys.platform, "libconvt1d.so")
_HERE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.dirname(os.path.dirname(_HERE))  # python/convt1d -> repo root


def _candidates() -> list[str]:
    """Where the shared library may be, in the order the loader tries them."""
    env = os.environ.get("CONVT1D_LIBRARY")
    if env:
        return [env]  # an explicit choice is never second-guessed
    out = []
    here = os.path.join(_HERE, _LIBNAME)
    if os.path.exists(here):
        out.append(here)  # pip install: next to __init__.py
    # Development checkout: <repo>/build/*/libconvt1d.so, newest first.
    dev = glob.glob(os.path.join(_REPO, "build", "*", _LIBNAME))
    dev += glob.glob(os.path.join(_REPO, "build", "*", "*", _LIBNAME))
    dev.sort(key=os.path.getmtime, reverse=True)
    out.extend(p for p in dev if not _sanitized(p))
    return out


def _sanitized(path: str) -> bool:
    """True for sanitizer builds (build/asan...): dlopen'ing one into Python kills the process
    ("ASan runtime does not come first"), so the development search skips them."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return True
    return any(tag in data for tag in (b"libasan.so", b"libtsan.so", b"libmsan", b"libhwasan"))


def _want_cuda() -> bool:
    """True when a CUDA device is usable, so a CUDA-enabled build should win over a CPU-only one."""
    try:
        import torch
        return torch.cuda.is_available()
    except Exception:  # pragma: no cover - torch missing or broken
        return False


def _declare(l: ctypes.CDLL) -> ctypes.CDLL:
    P = ctypes.POINTER(Params)
    i64p = ctypes.POINTER(ctypes.c_int64)
    st, vp, i32, i64, sz = ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_size_t
    sigs = {
        "convt1d_params_make": (Params, [i64, i64, i64, i64, i64]),
        "convt1d_status_string": (ctypes.c_char_p, [st]),
        "convt1d_last_error": (ctypes.c_char_p, []),
        "convt1d_validate": (st, [P, i64p]),
        "convt1d_output_length": (st, [P, i64p]),
        "convt1d_output_padding_for_size": (st, [P, i64, i64p]),
        "convt1d_tensor_sizes": (st, [P, i64p, i64p, i64p]),
        "convt1d_dtype_size": (sz, [i32]),
        "convt1d_forward_cpu": (st, [P, i32, vp, vp, vp, vp, i32]),
        "convt1d_backward_input_cpu": (st, [P, i32, vp, vp, vp, i32]),
        "convt1d_backward_weight_cpu": (st, [P, i32, vp, vp, vp, i32]),
        "convt1d_backward_bias_cpu": (st, [P, i32, vp, vp, i32]),
        "convt1d_has_cuda": (ctypes.c_int, []),
        "convt1d_forward_cuda": (st, [P, i32, i32, vp, vp, vp, vp, vp]),
        "convt1d_backward_input_cuda": (st, [P, i32, i32, vp, vp, vp, vp]),
        "convt1d_backward_weight_workspace_size": (st, [P, i32, ctypes.POINTER(sz)]),
        "convt1d_backward_weight_cuda": (st, [P, i32, i32, vp, vp, vp, vp, sz, vp]),
        "convt1d_backward_bias_cuda": (st, [P, i32, vp, vp, vp]),
        "convt1d_backward_cuda": (st, [P, i32, i32, vp, vp, vp, vp, vp, vp, vp]),
        "convt1d_weight_cache_create": (st, [ctypes.POINTER(vp)]),
        "convt1d_weight_cache_clear": (st, [vp]),
        "convt1d_weight_cache_destroy": (None, [vp]),
        "convt1d_weight_cache_info": (st, [vp, ctypes.POINTER(sz), ctypes.POINTER(i32),
                                           ctypes.POINTER(ctypes.c_uint64)]),
        "convt1d_forward_cuda_cached": (st, [P, i32, i32, vp, vp, vp, vp, vp, vp]),
    }
    missing = []
    for name, (restype, argtypes) in sigs.items():
        try:
            f = getattr(l, name)
        except AttributeError:
            missing.append(name)
            continue
        f.restype = restype
        f.argtypes = argtypes
    if missing:
        raise OSError(f"{l._name} lacks {', '.join(missing)} (stale or partial build?)")
    return l


def _load() -> tuple[ctypes.CDLL, str]:
    cands = _candidates()
    if not cands:
        raise OSError(
            f"convt1d: {_LIBNAME} not found. Set CONVT1D_LIBRARY, `pip install .`, or build it with "
            f"`cmake -S {_REPO} -B {_REPO}/build/rel && cmake --build {_REPO}/build/rel`.")
    errors, loaded = [], []
    want_cuda = _want_cuda() and len(cands) > 1
    for path in cands:
        try:
            l = _declare(ctypes.CDLL(path))
        except OSError as e:
            errors.append(f"{path}: {e}")
            continue
        if not want_cuda or l.convt1d_has_cuda():
            return l, path
        loaded.append((l, path))
    if loaded:
        return loaded[0]  # no CUDA build found: the newest CPU-only one still serves CPU tensors
    raise OSError("convt1d: could not load the library:\n  " + "\n  ".join(errors))


lib, library_path = _load()
_has_cuda = bool(lib.convt1d_has_cuda())


def has_cuda() -> bool:
    """True when the loaded library was built with CUDA kernels."""
    return _has_cuda


def version() -> str:
    return "0.1.0"


def last_error() -> str:
    return lib.convt1d_last_error().decode("utf-8", "replace")


def raise_for(status: int, what: str = "") -> None:
    """Raises the exception for a failed status, with the C core's message."""
    msg = last_error() or lib.convt1d_status_string(status).decode()
    if what:
        msg = f"{what}: {msg}"
    if status in (INVALID_VALUE, OVERFLOW):
        raise Convt1dValueError(msg, status)
    raise Convt1dError(msg, status)


def check(status: int, what: str = "") -> None:
    if status:
        raise_for(status, what)


# (N, C_in, C_out, L_in, K, stride, padding, output_padding, dilation, groups) -> (Params, L_out).
# The struct is passed by pointer and is const on the C side, so one cached instance serves every call.
_cache: dict[tuple, tuple[Params, int]] = {}
_CACHE_MAX = 4096


def params(key: tuple) -> tuple[Params, int]:
    """Validated Params and L_out for (N, C_in, C_out, L_in, K, s, p, op, d, g). Raises on bad values."""
    hit = _cache.get(key)
    if hit is not None:
        return hit
    p = Params(*key)  # key order == field order
    out = ctypes.c_int64(0)
    st = lib.convt1d_validate(ctypes.byref(p), ctypes.byref(out))
    if st:
        raise_for(st)
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    res = (p, out.value)
    _cache[key] = res
    return res


def output_length(in_length, kernel_size, stride=1, padding=0, output_padding=0, dilation=1,
                  in_channels=1, out_channels=1, groups=1, batch=1) -> int:
    """L_out from the C core (validating every parameter on the way)."""
    return params((batch, in_channels, out_channels, in_length, kernel_size, stride, padding,
                   output_padding, dilation, groups))[1]


_pad_cache: dict[tuple, int] = {}


def output_padding_for_size(requested_length, in_length, kernel_size, stride=1, padding=0, dilation=1,
                            in_channels=1, out_channels=1, groups=1, batch=1) -> int:
    """output_padding giving L_out == requested_length (PyTorch's forward(input, output_size))."""
    key = (batch, in_channels, out_channels, in_length, kernel_size, stride, padding, dilation, groups,
           requested_length)
    hit = _pad_cache.get(key)
    if hit is not None:
        return hit
    p = Params(batch, in_channels, out_channels, in_length, kernel_size, stride, padding, 0, dilation,
               groups)
    out = ctypes.c_int64(0)
    st = lib.convt1d_output_padding_for_size(ctypes.byref(p), requested_length, ctypes.byref(out))
    if st:
        raise_for(st)
    if len(_pad_cache) >= _CACHE_MAX:
        _pad_cache.clear()
    _pad_cache[key] = out.value
    return out.value


def workspace_size(p: Params, dtype: int) -> int:
    """Bytes of device workspace convt1d_backward_weight_cuda needs."""
    n = ctypes.c_size_t(0)
    check(lib.convt1d_backward_weight_workspace_size(ctypes.byref(p), dtype, ctypes.byref(n)))
    return n.value


class WeightCache:
    """The C library's packed-weight cache (convt1d_weight_cache, include/convt1d.h): the CUDA forward's packed copies
    of one weight tensor, kept across calls. `handle` goes to convt1d_forward_cuda_cached; `clear()` after the weight
    changed; freed with the object."""

    __slots__ = ("handle", "_destroy")

    def __init__(self):
        h = ctypes.c_void_p()
        check(lib.convt1d_weight_cache_create(ctypes.byref(h)), "weight cache")
        self.handle = h.value
        self._destroy = lib.convt1d_weight_cache_destroy  # still reachable while the interpreter shuts down

    def clear(self) -> None:
        check(lib.convt1d_weight_cache_clear(self.handle), "weight cache")

    def info(self) -> tuple[int, int, int]:
        """(device bytes held, packed copies, forward launches that read or filled one)."""
        b, n, u = ctypes.c_size_t(0), ctypes.c_int(0), ctypes.c_uint64(0)
        check(lib.convt1d_weight_cache_info(self.handle, ctypes.byref(b), ctypes.byref(n), ctypes.byref(u)),
              "weight cache")
        return b.value, n.value, u.value

    def uses(self) -> int:
        return self.info()[2]

    def __del__(self):
        h, self.handle = getattr(self, "handle", None), None
        if h:
            self._destroy(h)
