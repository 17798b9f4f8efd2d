/* Placeholder until the tensor-core forward lands: everything takes the direct kernel. */
#include "kernels.cuh"

convt1d_status convt1d_fwd_tc(const convt1d_problem &, const void *, const void *, const void *, void *,
                              cudaStream_t) {
    return CONVT1D_ERROR_NOT_SUPPORTED;
}
