/*
 * convt1d: transposed 1D convolution (PyTorch's ConvTranspose1d) in C, on CPU and CUDA.
 *
 * Layouts (all contiguous, row-major):
 *   input        x  [N, C_in, L_in]
 *   weight       w  [C_in, C_out / groups, K]          (PyTorch's ConvTranspose1d layout)
 *   bias         b  [C_out]                            (may be NULL)
 *   output       y  [N, C_out, L_out]
 *   L_out = (L_in - 1) * stride - 2 * padding + dilation * (K - 1) + output_padding + 1
 *
 * Every entry point validates its parameters with the same rules PyTorch enforces and returns a
 * convt1d_status; convt1d_last_error() then holds a sentence naming the parameter and the rule.
 * Nothing here prints, aborts or exits.
 *
 * f16 and bf16 data are passed as raw 16-bit IEEE half / bfloat16 values; they accumulate in f32.
 */
#ifndef CONVT1D_H
#define CONVT1D_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CONVT1D_VERSION_MAJOR 0
#define CONVT1D_VERSION_MINOR 1
#define CONVT1D_VERSION_PATCH 0

#if defined(_WIN32)
#define CONVT1D_API __declspec(dllexport)
#else
#define CONVT1D_API __attribute__((visibility("default")))
#endif

typedef enum {
    CONVT1D_SUCCESS = 0,
    CONVT1D_ERROR_INVALID_VALUE = 1, /* a parameter breaks a rule (the message names it) */
    CONVT1D_ERROR_OVERFLOW = 2,      /* a size or an index would overflow int64 */
    CONVT1D_ERROR_NULL_POINTER = 3,  /* a required pointer is NULL */
    CONVT1D_ERROR_NOT_SUPPORTED = 4, /* built without CUDA, or no kernel for this case */
    CONVT1D_ERROR_CUDA = 5,          /* the CUDA runtime reported an error (message has it) */
    CONVT1D_ERROR_OUT_OF_MEMORY = 6, /* a host allocation failed */
    CONVT1D_ERROR_INTERNAL = 7
} convt1d_status;

typedef enum {
    CONVT1D_F32 = 0,
    CONVT1D_F16 = 1,
    CONVT1D_BF16 = 2,
    CONVT1D_F64 = 3
} convt1d_dtype;

/* How float32 is computed on the GPU (other dtypes ignore it). PyTorch's default is TF32 allowed. */
typedef enum {
    CONVT1D_MATH_ALLOW_TF32 = 0,  /* fp32 data may use TF32 tensor cores (like cudnn.allow_tf32); layers under 2^24
                                     multiply-adds are computed fp32-accurate all the same (CONVT1D_TINY_FP32=0: TF32) */
    CONVT1D_MATH_STRICT_FP32 = 1  /* fp32-accurate results */
} convt1d_math;

typedef struct {
    int64_t batch;          /* N >= 0 */
    int64_t in_channels;    /* C_in >= 1 */
    int64_t out_channels;   /* C_out >= 1 */
    int64_t in_length;      /* L_in >= 1 */
    int64_t kernel_size;    /* K >= 1 */
    int64_t stride;         /* >= 1 */
    int64_t padding;        /* >= 0 */
    int64_t output_padding; /* >= 0, < max(stride, dilation) */
    int64_t dilation;       /* >= 1 */
    int64_t groups;         /* >= 1, divides C_in and C_out */
} convt1d_params;

/* Fills p with PyTorch's defaults (stride 1, padding 0, output_padding 0, dilation 1, groups 1). */
CONVT1D_API convt1d_params convt1d_params_make(int64_t batch, int64_t in_channels,
                                               int64_t out_channels, int64_t in_length,
                                               int64_t kernel_size);

/* A fixed sentence for a status code. */
CONVT1D_API const char *convt1d_status_string(convt1d_status status);
/* The detailed message of the last failing call on this thread ("" if none). */
CONVT1D_API const char *convt1d_last_error(void);

/* Checks every rule; on success writes L_out (>= 1) to *out_length (which may be NULL). */
CONVT1D_API convt1d_status convt1d_validate(const convt1d_params *p, int64_t *out_length);
CONVT1D_API convt1d_status convt1d_output_length(const convt1d_params *p, int64_t *out_length);

/* output_padding that makes L_out == requested (PyTorch's forward(input, output_size)). */
CONVT1D_API convt1d_status convt1d_output_padding_for_size(const convt1d_params *p,
                                                           int64_t requested_length,
                                                           int64_t *output_padding);

/* Element counts of the four tensors (after validation). */
CONVT1D_API convt1d_status convt1d_tensor_sizes(const convt1d_params *p, int64_t *input_numel,
                                                int64_t *weight_numel, int64_t *output_numel);

CONVT1D_API size_t convt1d_dtype_size(convt1d_dtype dtype);

/* ---------------------------------------------------------------- CPU */
/* num_threads <= 0: use all available cores. */
CONVT1D_API convt1d_status convt1d_forward_cpu(const convt1d_params *p, convt1d_dtype dtype,
                                               const void *x, const void *w, const void *bias,
                                               void *y, int num_threads);
/* grad_x[N, C_in, L_in] from grad_y[N, C_out, L_out]. */
CONVT1D_API convt1d_status convt1d_backward_input_cpu(const convt1d_params *p, convt1d_dtype dtype,
                                                      const void *grad_y, const void *w,
                                                      void *grad_x, int num_threads);
/* grad_w[C_in, C_out/groups, K]; deterministic. */
CONVT1D_API convt1d_status convt1d_backward_weight_cpu(const convt1d_params *p, convt1d_dtype dtype,
                                                       const void *grad_y, const void *x,
                                                       void *grad_w, int num_threads);
/* grad_b[C_out] = sum over N and L_out of grad_y. */
CONVT1D_API convt1d_status convt1d_backward_bias_cpu(const convt1d_params *p, convt1d_dtype dtype,
                                                     const void *grad_y, void *grad_b,
                                                     int num_threads);

/* ---------------------------------------------------------------- CUDA */
/* Pointers are device pointers; work is queued on `stream` (a cudaStream_t; NULL = legacy default)
 * and nothing synchronizes. Launch errors come back as CONVT1D_ERROR_CUDA. Scratch that a path needs
 * (packed weights, transposed inputs, a batch folded into one row) is taken stream-ordered from the
 * device's default memory pool (cudaMallocAsync), so every call can be captured in a CUDA graph;
 * convt1d_backward_weight_cuda's caller workspace serves its unfolded kernels. */
struct CUstream_st;
typedef struct CUstream_st *convt1d_stream;

/* 1 when this library was built with CUDA kernels. */
CONVT1D_API int convt1d_has_cuda(void);

CONVT1D_API convt1d_status convt1d_forward_cuda(const convt1d_params *p, convt1d_dtype dtype,
                                                convt1d_math math, const void *x, const void *w,
                                                const void *bias, void *y, convt1d_stream stream);
CONVT1D_API convt1d_status convt1d_backward_input_cuda(const convt1d_params *p, convt1d_dtype dtype,
                                                       convt1d_math math, const void *grad_y,
                                                       const void *w, void *grad_x,
                                                       convt1d_stream stream);
/* Bytes of device workspace convt1d_backward_weight_cuda needs (0 allowed). */
CONVT1D_API convt1d_status convt1d_backward_weight_workspace_size(const convt1d_params *p,
                                                                  convt1d_dtype dtype,
                                                                  size_t *bytes);
CONVT1D_API convt1d_status convt1d_backward_weight_cuda(const convt1d_params *p, convt1d_dtype dtype,
                                                        convt1d_math math, const void *grad_y,
                                                        const void *x, void *grad_w,
                                                        void *workspace, size_t workspace_bytes,
                                                        convt1d_stream stream);
CONVT1D_API convt1d_status convt1d_backward_bias_cuda(const convt1d_params *p, convt1d_dtype dtype,
                                                      const void *grad_y, void *grad_b,
                                                      convt1d_stream stream);
/* The gradients a training step asks for, in one call: each of grad_x, grad_w, grad_b that is not NULL
 * is computed (x may be NULL when grad_w is, w when grad_x is). One validation and no caller workspace:
 * grad_w's scratch is taken stream-ordered (cudaMallocAsync), so the call stays graph-capturable. Same
 * kernels and results as the three calls above; fewer host microseconds for latency-bound steps. */
CONVT1D_API convt1d_status convt1d_backward_cuda(const convt1d_params *p, convt1d_dtype dtype,
                                                 convt1d_math math, const void *grad_y, const void *x,
                                                 const void *w, void *grad_x, void *grad_w,
                                                 void *grad_b, convt1d_stream stream);

/* ---------------------------------------------------------------- CUDA: packed-weight cache (inference)
 * The tensor-core forwards first rearrange the weight into their kernels' layout, a pass over the weight on every
 * call (10-60 us on the vocoder layers of the benchmark suite). Where the weight does not change between calls
 * (inference), a cache keeps those packed copies: create one per weight tensor, pass it to
 * convt1d_forward_cuda_cached with that weight, and clear it after writing to the weight: the library cannot see
 * such writes, and a cache that is not cleared keeps computing with the weight it packed. The first call of a layout
 * (the layout depends on the sizes, dtype, math mode and device) packs into device memory the cache then holds;
 * later calls skip the pass. Calls on paths without a packing pass, and calls made while their stream is being
 * captured into a CUDA graph before the copy exists, compute as convt1d_forward_cuda does. A cache serves any
 * number of threads and streams; clear and destroy free its memory with cudaFree, which waits for the device. */
typedef struct convt1d_weight_cache convt1d_weight_cache;

CONVT1D_API convt1d_status convt1d_weight_cache_create(convt1d_weight_cache **cache);
/* Forget the packed copies (after the weight changed). NULL is a no-op. */
CONVT1D_API convt1d_status convt1d_weight_cache_clear(convt1d_weight_cache *cache);
CONVT1D_API void convt1d_weight_cache_destroy(convt1d_weight_cache *cache);
/* Device bytes the cache holds, the number of packed copies, and the number of forward launches that read or filled
 * one (any output pointer may be NULL). */
CONVT1D_API convt1d_status convt1d_weight_cache_info(const convt1d_weight_cache *cache, size_t *bytes,
                                                     int *entries, uint64_t *uses);
/* convt1d_forward_cuda with the weight's packed copies kept in `cache` (NULL: convt1d_forward_cuda). */
CONVT1D_API convt1d_status convt1d_forward_cuda_cached(const convt1d_params *p, convt1d_dtype dtype,
                                                       convt1d_math math, const void *x, const void *w,
                                                       const void *bias, void *y,
                                                       convt1d_weight_cache *cache,
                                                       convt1d_stream stream);

#ifdef __cplusplus
}
#endif
#endif /* CONVT1D_H */
