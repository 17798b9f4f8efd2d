/* The one source of truth for parameter rules and shape arithmetic. Every caller (CPU, CUDA, the
 * Python front through ctypes) goes through convt1d_validate. */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static _Thread_local char last_error[512];

convt1d_status convt1d_fail(convt1d_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

void convt1d_clear_error(void) { last_error[0] = '\0'; }

const char *convt1d_last_error(void) { return last_error; }

const char *convt1d_status_string(convt1d_status status) {
    switch (status) {
    case CONVT1D_SUCCESS: return "success";
    case CONVT1D_ERROR_INVALID_VALUE: return "invalid parameter value";
    case CONVT1D_ERROR_OVERFLOW: return "size arithmetic overflows int64";
    case CONVT1D_ERROR_NULL_POINTER: return "a required pointer is NULL";
    case CONVT1D_ERROR_NOT_SUPPORTED: return "not supported by this build or for this case";
    case CONVT1D_ERROR_CUDA: return "CUDA runtime error";
    case CONVT1D_ERROR_OUT_OF_MEMORY: return "out of host memory";
    case CONVT1D_ERROR_INTERNAL: return "internal error";
    }
    return "unknown status code";
}

size_t convt1d_dtype_size(convt1d_dtype dtype) {
    switch (dtype) {
    case CONVT1D_F32: return 4;
    case CONVT1D_F16: return 2;
    case CONVT1D_BF16: return 2;
    case CONVT1D_F64: return 8;
    }
    return 0;
}

convt1d_params convt1d_params_make(int64_t batch, int64_t in_channels, int64_t out_channels,
                                   int64_t in_length, int64_t kernel_size) {
    convt1d_params p = {batch, in_channels, out_channels, in_length, kernel_size,
                        /*stride*/ 1, /*padding*/ 0, /*output_padding*/ 0, /*dilation*/ 1,
                        /*groups*/ 1};
    return p;
}

/* a*b and a+b on non-negative int64 with overflow detection. */
static int mul_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }
static int add_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }

/* Numerator of L_out without its trailing "+ 1": may be negative. */
static convt1d_status length_terms(const convt1d_params *p, int64_t *len) {
    int64_t span, grow, pad2, t;
    if (!mul_ok(p->in_length - 1, p->stride, &grow) || !mul_ok(p->dilation, p->kernel_size - 1, &span) ||
        !mul_ok(p->padding, 2, &pad2) || !add_ok(grow, span, &t) || !add_ok(t, p->output_padding, &t) ||
        !add_ok(t, 1, &t))
        return convt1d_fail(CONVT1D_ERROR_OVERFLOW,
                            "output length (L_in - 1) * stride - 2 * padding + dilation * (kernel_size - 1)"
                            " + output_padding + 1 overflows int64");
    *len = t - pad2;
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_validate(const convt1d_params *p, int64_t *out_length) {
    if (!p) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "params must not be NULL");
    if (p->batch < 0) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "batch (N) must be >= 0, got %lld", (long long)p->batch);
    if (p->in_channels < 1) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "in_channels must be >= 1, got %lld", (long long)p->in_channels);
    if (p->out_channels < 1) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "out_channels must be >= 1, got %lld", (long long)p->out_channels);
    if (p->in_length < 1) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "input length (L_in) must be >= 1, got %lld", (long long)p->in_length);
    if (p->kernel_size < 1) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "kernel_size must be >= 1, got %lld", (long long)p->kernel_size);
    if (p->stride < 1) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "stride must be >= 1 (non-positive stride is not supported), got %lld", (long long)p->stride);
    if (p->padding < 0) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "padding must be >= 0 (negative padding is not supported), got %lld", (long long)p->padding);
    if (p->output_padding < 0) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "output_padding must be >= 0 (negative output_padding is not supported), got %lld", (long long)p->output_padding);
    if (p->dilation < 1) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "dilation must be >= 1, got %lld", (long long)p->dilation);
    if (p->groups < 1) return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "groups must be >= 1 (non-positive groups is not supported), got %lld", (long long)p->groups);
    if (p->output_padding >= p->stride && p->output_padding >= p->dilation)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE,
                            "output_padding must be smaller than either stride or dilation, but got "
                            "output_padding=%lld, stride=%lld, dilation=%lld",
                            (long long)p->output_padding, (long long)p->stride, (long long)p->dilation);
    if (p->in_channels % p->groups != 0)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "in_channels (%lld) must be divisible by groups (%lld)",
                            (long long)p->in_channels, (long long)p->groups);
    if (p->out_channels % p->groups != 0)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "out_channels (%lld) must be divisible by groups (%lld)",
                            (long long)p->out_channels, (long long)p->groups);
    int64_t len = 0;
    convt1d_status st = length_terms(p, &len);
    if (st != CONVT1D_SUCCESS) return st;
    if (len < 1)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE,
                            "output length must be >= 1: input length %lld gives (L_in - 1) * stride - 2 * padding"
                            " + dilation * (kernel_size - 1) + output_padding + 1 = %lld (output size is too small)",
                            (long long)p->in_length, (long long)len);
    /* Every tensor's element count (and so every flat index) must fit in int64. */
    int64_t t;
    if (!mul_ok(p->batch, p->in_channels, &t) || !mul_ok(t, p->in_length, &t) ||
        !mul_ok(p->batch, p->out_channels, &t) || !mul_ok(t, len, &t) ||
        !mul_ok(p->in_channels, p->out_channels / p->groups, &t) || !mul_ok(t, p->kernel_size, &t) ||
        t > INT64_MAX / 8)
        return convt1d_fail(CONVT1D_ERROR_OVERFLOW, "tensor element counts overflow int64");
    if (out_length) *out_length = len;
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_output_length(const convt1d_params *p, int64_t *out_length) {
    return convt1d_validate(p, out_length);
}

convt1d_status convt1d_output_padding_for_size(const convt1d_params *p, int64_t requested_length,
                                               int64_t *output_padding) {
    if (!p || !output_padding) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "params and output_padding must not be NULL");
    convt1d_params q = *p;
    q.output_padding = 0;
    int64_t min_len = 0;
    convt1d_status st = length_terms(&q, &min_len);
    if (st != CONVT1D_SUCCESS) return st;
    /* PyTorch's rule (_ConvTransposeNd._output_padding): min <= size <= min + stride - 1. */
    int64_t max_len = min_len + q.stride - 1;
    if (requested_length < min_len || requested_length > max_len)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE,
                            "requested output_size %lld is not in the valid range [%lld, %lld] "
                            "(min is L_out with output_padding 0, max adds stride - 1)",
                            (long long)requested_length, (long long)min_len, (long long)max_len);
    q.output_padding = requested_length - min_len;
    st = convt1d_validate(&q, NULL);
    if (st != CONVT1D_SUCCESS) return st;
    *output_padding = q.output_padding;
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_tensor_sizes(const convt1d_params *p, int64_t *input_numel, int64_t *weight_numel,
                                    int64_t *output_numel) {
    int64_t len = 0;
    convt1d_status st = convt1d_validate(p, &len);
    if (st != CONVT1D_SUCCESS) return st;
    if (input_numel) *input_numel = p->batch * p->in_channels * p->in_length;
    if (weight_numel) *weight_numel = p->in_channels * (p->out_channels / p->groups) * p->kernel_size;
    if (output_numel) *output_numel = p->batch * p->out_channels * len;
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_check_call(const convt1d_params *p, convt1d_dtype dtype, int64_t *out_length,
                                  const void *a, const char *a_name, const void *b, const char *b_name,
                                  const void *c, const char *c_name) {
    convt1d_clear_error();
    if (convt1d_dtype_size(dtype) == 0)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "dtype must be one of CONVT1D_F32/F16/BF16/F64, got %d", (int)dtype);
    convt1d_status st = convt1d_validate(p, out_length);
    if (st != CONVT1D_SUCCESS) return st;
    if (p->batch == 0) return CONVT1D_SUCCESS; /* empty batch: nothing is read or written */
    if (a_name && !a) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "%s must not be NULL", a_name);
    if (b_name && !b) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "%s must not be NULL", b_name);
    if (c_name && !c) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "%s must not be NULL", c_name);
    return CONVT1D_SUCCESS;
}
