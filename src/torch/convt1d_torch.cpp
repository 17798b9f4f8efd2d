/* The eager PyTorch path in C++: convt1d_eager::conv_transpose1d, an op whose autograd node and kernels call the
 * C API (include/convt1d.h) directly. python/convt1d/functional.py takes it for plain tensors in eager mode when
 * this library was built for the running torch (torch.ops.load_library in _ops.py); everything else (torch.compile,
 * autocast, functorch, __torch_function__ / dispatch modes) stays on the convt1d:: ops defined in _ops.py.
 *
 * Why: a small layer's training step is host-bound, and the Python autograd.Function cost as much host time as
 * cuDNN's whole C++ path (run 140: the Python node's own time 30-56 us per step on the H200 host). Here the forward
 * is one dispatcher call and the backward node never takes the GIL.
 *
 * It also serves as the CPU / CUDA kernels of the convt1d:: ops of _ops.py (op_forward / op_backward below), so that
 * torch.compile graphs and autocast calls reach the C API without a Python kernel either.
 *
 * Errors: parameter rules and messages live in the C core; a failed C call raises a RuntimeError with its sentence.
 * The eager caller (functional.py) then re-runs the call on the Python path, which raises the library's own exception
 * types; through the convt1d:: ops (torch.compile validates at trace time, in the fake kernels) it stays a
 * RuntimeError carrying the C core's sentence. */
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/autocast_mode.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include <array>
#include <tuple>

#ifdef CONVT1D_TORCH_CUDA
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

#include "convt1d.h"

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

struct Conv {
    int64_t stride, padding, output_padding, groups, dilation;
};

[[noreturn]] void fail(convt1d_status st, const char *what) {
    const char *msg = convt1d_last_error();
    TORCH_CHECK(false, what, ": ", msg && msg[0] ? msg : convt1d_status_string(st));
}

inline void check(convt1d_status st, const char *what) {
    if (st != CONVT1D_SUCCESS) fail(st, what);
}

convt1d_dtype dtype_code(const at::Tensor &t) {
    switch (t.scalar_type()) {
    case at::kFloat: return CONVT1D_F32;
    case at::kHalf: return CONVT1D_F16;
    case at::kBFloat16: return CONVT1D_BF16;
    case at::kDouble: return CONVT1D_F64;
    default: TORCH_CHECK(false, "convt1d supports float32, float16, bfloat16 and float64 tensors, got ", t.scalar_type());
    }
}

/* What the C core cannot see from the problem's sizes: the operands' dims, dtypes and devices, the weight's input
 * channels and the bias's shape (functional._check_args states the same rules with PyTorch's messages). b may be
 * undefined; groups as given. */
void check_operands(const at::Tensor &x, const at::Tensor &w, const at::Tensor &b, int64_t groups, const char *what) {
    TORCH_CHECK(x.dim() == 3 && w.dim() == 3, what, ": takes 3-D input and weight");
    TORCH_CHECK(x.is_cpu() || x.is_cuda(), what, ": takes CPU or CUDA tensors, got ", x.device());
    TORCH_CHECK(w.scalar_type() == x.scalar_type() && w.device() == x.device(), what,
                ": input and weight must share dtype and device");
    TORCH_CHECK(w.size(0) == x.size(1), what, ": weight has ", w.size(0), " input channels, input has ", x.size(1));
    if (b.defined())
        TORCH_CHECK(b.scalar_type() == x.scalar_type() && b.device() == x.device() && b.dim() == 1 &&
                        b.size(0) == w.size(1) * groups,
                    what, ": bias must be 1-D with C_out elements, of the input's dtype and device");
}

/* The C core's problem for x and w that passed check_operands (the validation, and L_out, come from convt1d_validate). */
convt1d_params params_of(const at::Tensor &x, const at::Tensor &w, const Conv &c, int64_t *lout, const char *what) {
    /* groups < 1 reaches the C core as such, so that its message names groups (as _ops._cout does) */
    const int64_t cout = c.groups >= 1 ? w.size(1) * c.groups : w.size(1);
    convt1d_params p = convt1d_params_make(x.size(0), x.size(1), cout, x.size(2), w.size(2));
    p.stride = c.stride, p.padding = c.padding, p.output_padding = c.output_padding;
    p.dilation = c.dilation, p.groups = c.groups;
    check(convt1d_validate(&p, lout), what);
    return p;
}

convt1d_math math_mode() {
    /* Read at every call, like cuDNN: TF32 only when PyTorch allows it for convolutions. */
    return at::globalContext().allowTF32CuDNN() ? CONVT1D_MATH_ALLOW_TF32 : CONVT1D_MATH_STRICT_FP32;
}

#ifdef CONVT1D_TORCH_CUDA
convt1d_stream stream_of(const at::Tensor &t) {
    return reinterpret_cast<convt1d_stream>(c10::cuda::getCurrentCUDAStream(t.device().index()).stream());
}
#endif

at::Tensor forward_kernel(const at::Tensor &x0, const at::Tensor &w0, const c10::optional<at::Tensor> &b0,
                          const Conv &c, convt1d_weight_cache *cache = nullptr) {
    const at::Tensor b1 = b0.has_value() && b0->defined() ? *b0 : at::Tensor();
    check_operands(x0, w0, b1, c.groups, "convt1d forward"); /* before any copy */
    const at::Tensor x = x0.contiguous(), w = w0.contiguous(), b = b1.defined() ? b1.contiguous() : b1;
    int64_t lout = 0;
    const convt1d_params p = params_of(x, w, c, &lout, "convt1d forward");
    const convt1d_dtype dt = dtype_code(x);
    at::Tensor y = at::empty({x.size(0), p.out_channels, lout}, x.options());
    const void *bp = b.defined() ? b.data_ptr() : nullptr;
    if (x.is_cuda()) {
#ifdef CONVT1D_TORCH_CUDA
        const c10::cuda::CUDAGuard guard(x.device());
        check(convt1d_forward_cuda_cached(&p, dt, math_mode(), x.data_ptr(), w.data_ptr(), bp, y.data_ptr(), cache,
                                          stream_of(x)),
              "convt1d forward");
#else
        TORCH_CHECK(false, "convt1d_eager was built without CUDA");
#endif
    } else {
        check(convt1d_forward_cpu(&p, dt, x.data_ptr(), w.data_ptr(), bp, y.data_ptr(), at::get_num_threads()),
              "convt1d forward");
    }
    return y;
}

/* grad_input, grad_weight, grad_bias (undefined where not wanted) by the C entry points. */
std::array<at::Tensor, 3> backward_kernel(const at::Tensor &gy0, const at::Tensor &x0, const at::Tensor &w0,
                                          const Conv &c, std::array<bool, 3> want) {
    check_operands(x0, w0, at::Tensor(), c.groups, "convt1d backward"); /* before any copy */
    TORCH_CHECK(gy0.device() == x0.device(), "convt1d backward: grad_output must be on the input's device");
    const at::Tensor gy = gy0.contiguous(), x = x0.contiguous(), w = w0.contiguous();
    int64_t lout = 0;
    const convt1d_params p = params_of(x, w, c, &lout, "convt1d backward");
    TORCH_CHECK(gy.dim() == 3 && gy.size(0) == x.size(0) && gy.size(1) == p.out_channels && gy.size(2) == lout,
                "convt1d backward: grad_output has shape ", gy.sizes(), ", expected [", x.size(0), ", ", p.out_channels,
                ", ", lout, "]");
    TORCH_CHECK(gy.scalar_type() == x.scalar_type() && w.scalar_type() == x.scalar_type(),
                "convt1d backward: grad_output, input and weight must share one dtype");
    const convt1d_dtype dt = dtype_code(x);
    const at::Tensor gx = want[0] ? at::empty_like(x) : at::Tensor();
    const at::Tensor gw = want[1] ? at::empty_like(w) : at::Tensor();
    const at::Tensor gb = want[2] ? at::empty({p.out_channels}, gy.options()) : at::Tensor();
    auto ptr = [](const at::Tensor &t) { return t.defined() ? t.data_ptr() : nullptr; };
    if (x.is_cuda()) {
#ifdef CONVT1D_TORCH_CUDA
        const c10::cuda::CUDAGuard guard(x.device());
        check(convt1d_backward_cuda(&p, dt, math_mode(), gy.data_ptr(), x.data_ptr(), w.data_ptr(), ptr(gx), ptr(gw),
                                    ptr(gb), stream_of(x)),
              "convt1d backward");
#else
        TORCH_CHECK(false, "convt1d_eager was built without CUDA");
#endif
    } else {
        const int nt = at::get_num_threads();
        if (want[0]) check(convt1d_backward_input_cpu(&p, dt, gy.data_ptr(), w.data_ptr(), gx.data_ptr(), nt), "convt1d backward (input)");
        if (want[1]) check(convt1d_backward_weight_cpu(&p, dt, gy.data_ptr(), x.data_ptr(), gw.data_ptr(), nt), "convt1d backward (weight)");
        if (want[2]) check(convt1d_backward_bias_cpu(&p, dt, gy.data_ptr(), gb.data_ptr(), nt), "convt1d backward (bias)");
    }
    return {gx, gw, gb};
}

/* The autograd node. A backward that builds a graph (create_graph=True) goes through the backward op of _ops.py,
 * whose own autograd gives the double backward; a plain backward calls the C entry points. */
struct ConvT1dFunction : public torch::autograd::Function<ConvT1dFunction> {
    static at::Tensor forward(AutogradContext *ctx, const at::Tensor &x, const at::Tensor &w,
                              const c10::optional<at::Tensor> &b, int64_t stride, int64_t padding, int64_t output_padding,
                              int64_t groups, int64_t dilation) {
        const Conv c{stride, padding, output_padding, groups, dilation};
        at::Tensor y = forward_kernel(x, w, b, c);
        ctx->save_for_backward({x, w});
        ctx->saved_data["conv"] = std::vector<int64_t>{stride, padding, output_padding, groups, dilation};
        ctx->saved_data["has_bias"] = b.has_value() && b->defined();
        return y;
    }

    static variable_list backward(AutogradContext *ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto cv = ctx->saved_data["conv"].toIntVector();
        const Conv c{cv[0], cv[1], cv[2], cv[3], cv[4]};
        const bool has_bias = ctx->saved_data["has_bias"].toBool();
        /* needs_input_grad counts tensor inputs only: x, w, then the bias when there was one */
        const std::array<bool, 3> want{ctx->needs_input_grad(0), ctx->needs_input_grad(1),
                                       has_bias && ctx->needs_input_grad(2)};
        const at::Tensor &gy = grads[0];
        variable_list out(8);
        if (!gy.defined() || !(want[0] || want[1] || want[2])) return out;
        std::array<at::Tensor, 3> g;
        if (at::GradMode::is_enabled()) {
            static const auto op = c10::Dispatcher::singleton()
                                       .findSchemaOrThrow("convt1d::conv_transpose1d_backward", "")
                                       .typed<std::tuple<at::Tensor, at::Tensor, at::Tensor>(
                                           const at::Tensor &, const at::Tensor &, const at::Tensor &, int64_t, int64_t,
                                           int64_t, int64_t, int64_t, std::array<bool, 3>)>();
            std::tie(g[0], g[1], g[2]) =
                op.call(gy, saved[0], saved[1], c.stride, c.padding, c.output_padding, c.groups, c.dilation, want);
        } else {
            g = backward_kernel(gy, saved[0], saved[1], c, want);
        }
        for (int i = 0; i < 3; ++i)
            if (want[i]) out[i] = g[i];
        return out;
    }
};

/* The eager op: functional.py calls it first, with the user's arguments unchecked, and re-runs a refused call on its
 * full Python path (PyTorch's messages, the library's exception types). So it refuses everything that path would
 * refuse (check_operands, the C core's rules, dtypes) and what it must not serve: autocast (the convt1d:: op casts).
 * Unbatched input (C_in, L_in) is taken here; without a gradient to record there is no autograd node to build. */
at::Tensor conv_transpose1d(const at::Tensor &x, const at::Tensor &w, const c10::optional<at::Tensor> &b, int64_t stride,
                            int64_t padding, int64_t output_padding, int64_t groups, int64_t dilation) {
    if (x.dim() == 2)
        return conv_transpose1d(x.unsqueeze(0), w, b, stride, padding, output_padding, groups, dilation).squeeze(0);
    TORCH_CHECK(!at::autocast::is_autocast_enabled(x.device().type()), "convt1d_eager: autocast goes through convt1d::");
    const bool has_b = b.has_value() && b->defined();
    if (at::GradMode::is_enabled() && (x.requires_grad() || w.requires_grad() || (has_b && b->requires_grad())))
        return ConvT1dFunction::apply(x, w, b, stride, padding, output_padding, groups, dilation);
    return forward_kernel(x, w, b, Conv{stride, padding, output_padding, groups, dilation});
}

/* ConvTranspose1d.cache_packed_weights' forward: the eager op without a gradient, the weight's packed copies kept in
 * `cache` (a convt1d_weight_cache pointer; _lib.WeightCache.handle). The module calls it only where nothing records a
 * gradient, for plain CUDA tensors; a refused call is re-run on the Python path, as for the eager op. */
at::Tensor conv_transpose1d_cached(const at::Tensor &x, const at::Tensor &w, const c10::optional<at::Tensor> &b,
                                   int64_t stride, int64_t padding, int64_t output_padding, int64_t groups,
                                   int64_t dilation, int64_t cache) {
    if (x.dim() == 2)
        return conv_transpose1d_cached(x.unsqueeze(0), w, b, stride, padding, output_padding, groups, dilation, cache)
            .squeeze(0);
    TORCH_CHECK(x.is_cuda() && !at::autocast::is_autocast_enabled(x.device().type()),
                "convt1d_eager: the cached forward takes CUDA tensors outside autocast");
    return forward_kernel(x, w, b, Conv{stride, padding, output_padding, groups, dilation},
                          reinterpret_cast<convt1d_weight_cache *>(cache));
}

/* The CPU / CUDA kernels of the convt1d:: ops that _ops.py defines (what torch.compile graphs, autocast and the
 * backward of a graph-building backward call): the same C entry points instead of _ops.py's Python kernels. */
at::Tensor op_forward(const at::Tensor &x, const at::Tensor &w, const c10::optional<at::Tensor> &b, int64_t stride,
                      int64_t padding, int64_t output_padding, int64_t groups, int64_t dilation) {
    return forward_kernel(x, w, b, Conv{stride, padding, output_padding, groups, dilation});
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> op_backward(const at::Tensor &gy, const at::Tensor &x, const at::Tensor &w,
                                                           int64_t stride, int64_t padding, int64_t output_padding,
                                                           int64_t groups, int64_t dilation, std::array<bool, 3> mask) {
    auto g = backward_kernel(gy, x, w, Conv{stride, padding, output_padding, groups, dilation}, mask);
    /* the schema returns three tensors: an empty one for a gradient not asked for, as _ops.backward_impl does */
    const at::Tensor *like[3] = {&x, &w, &gy};
    for (int i = 0; i < 3; ++i)
        if (!g[i].defined()) g[i] = at::empty({0}, like[i]->options());
    return {g[0], g[1], g[2]};
}

/* What this library was built for: the torch version (a library built for another one is not used) and CUDA. */
std::string build_torch_version() { return CONVT1D_TORCH_VERSION; }
bool cuda_enabled() {
#ifdef CONVT1D_TORCH_CUDA
    return true;
#else
    return false;
#endif
}

} // namespace

TORCH_LIBRARY(convt1d_eager, m) {
    m.def("conv_transpose1d(Tensor input, Tensor weight, Tensor? bias, int stride, int padding, int output_padding, "
          "int groups, int dilation) -> Tensor",
          &conv_transpose1d);
    m.def("conv_transpose1d_cached(Tensor input, Tensor weight, Tensor? bias, int stride, int padding, "
          "int output_padding, int groups, int dilation, int cache) -> Tensor",
          &conv_transpose1d_cached);
    m.def("torch_version() -> str", &build_torch_version);
    m.def("cuda_enabled() -> bool", &cuda_enabled);
}

/* Loaded by _ops.py after it defines the convt1d:: ops, which then registers its Python kernels only for the keys
 * not covered here. */
TORCH_LIBRARY_IMPL(convt1d, CPU, m) {
    m.impl("conv_transpose1d", &op_forward);
    m.impl("conv_transpose1d_backward", &op_backward);
}
#ifdef CONVT1D_TORCH_CUDA
TORCH_LIBRARY_IMPL(convt1d, CUDA, m) {
    m.impl("conv_transpose1d", &op_forward);
    m.impl("conv_transpose1d_backward", &op_backward);
}
#endif
