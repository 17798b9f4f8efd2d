/* Internal interface between the CUDA entry points (api.cu) and the kernel files. */
#pragma once
#include <cuda_runtime.h>

#include "internal.h"

/* Everything a kernel launcher needs, computed once on the host by api.cu after validation. */
struct convt1d_problem {
    convt1d_params p;
    int64_t out_length; /* L_out */
    int64_t cin_g;      /* C_in / groups  */
    int64_t cout_g;     /* C_out / groups */
    convt1d_dtype dtype;
    convt1d_math math;
};

/* Tensor-core forward (fwd_tc.cu). Returns CONVT1D_ERROR_NOT_SUPPORTED, without recording an error,
 * when it has no kernel for this problem; api.cu then falls back to the direct kernel. */
convt1d_status convt1d_fwd_tc(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                              void *y, cudaStream_t stream);

/* Direct (CUDA-core) kernels, every dtype and parameter combination (fwd_direct.cu, bwd_direct.cu). */
convt1d_status convt1d_fwd_direct(const convt1d_problem &pr, const void *x, const void *w,
                                  const void *bias, void *y, cudaStream_t stream);

/* Turns the last CUDA error (if any) into CONVT1D_ERROR_CUDA with a message naming `what`. */
convt1d_status convt1d_cuda_check(const char *what);

/* Depthwise / channel-multiplier forward (C_in / groups == 1): bandwidth-bound (fwd_depthwise.cu).
 * Returns CONVT1D_ERROR_NOT_SUPPORTED, without recording an error, for shapes it does not take. */
convt1d_status convt1d_fwd_depthwise(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                     void *y, cudaStream_t stream);
