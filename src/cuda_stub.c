/* CPU-only build: the CUDA entry points exist and say why they cannot run. */
#include <stdlib.h>

#include "internal.h"

#define NO_CUDA() convt1d_fail(CONVT1D_ERROR_NOT_SUPPORTED, "convt1d was built without CUDA (nvcc was not found at build time)")

int convt1d_has_cuda(void) { return 0; }

convt1d_status convt1d_forward_cuda(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                    const void *x, const void *w, const void *bias, void *y,
                                    convt1d_stream stream) {
    (void)p; (void)dtype; (void)math; (void)x; (void)w; (void)bias; (void)y; (void)stream;
    return NO_CUDA();
}
convt1d_status convt1d_backward_input_cuda(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                           const void *grad_y, const void *w, void *grad_x,
                                           convt1d_stream stream) {
    (void)p; (void)dtype; (void)math; (void)grad_y; (void)w; (void)grad_x; (void)stream;
    return NO_CUDA();
}
convt1d_status convt1d_backward_weight_workspace_size(const convt1d_params *p, convt1d_dtype dtype,
                                                      size_t *bytes) {
    (void)p; (void)dtype;
    if (bytes) *bytes = 0;
    return NO_CUDA();
}
convt1d_status convt1d_backward_weight_cuda(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                            const void *grad_y, const void *x, void *grad_w,
                                            void *workspace, size_t workspace_bytes, convt1d_stream stream) {
    (void)p; (void)dtype; (void)math; (void)grad_y; (void)x; (void)grad_w; (void)workspace;
    (void)workspace_bytes; (void)stream;
    return NO_CUDA();
}
convt1d_status convt1d_backward_bias_cuda(const convt1d_params *p, convt1d_dtype dtype, const void *grad_y,
                                          void *grad_b, convt1d_stream stream) {
    (void)p; (void)dtype; (void)grad_y; (void)grad_b; (void)stream;
    return NO_CUDA();
}
convt1d_status convt1d_backward_cuda(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                     const void *grad_y, const void *x, const void *w, void *grad_x,
                                     void *grad_w, void *grad_b, convt1d_stream stream) {
    (void)p; (void)dtype; (void)math; (void)grad_y; (void)x; (void)w; (void)grad_x; (void)grad_w;
    (void)grad_b; (void)stream;
    return NO_CUDA();
}

convt1d_status convt1d_forward_cuda_cached(const convt1d_params *p, convt1d_dtype dtype, convt1d_math math,
                                           const void *x, const void *w, const void *bias, void *y,
                                           convt1d_weight_cache *cache, convt1d_stream stream) {
    (void)p; (void)dtype; (void)math; (void)x; (void)w; (void)bias; (void)y; (void)cache; (void)stream;
    return NO_CUDA();
}
/* The cache itself needs no GPU; a CPU-only library has no forward that would fill it. */
struct convt1d_weight_cache {
    int unused;
};
convt1d_status convt1d_weight_cache_create(convt1d_weight_cache **cache) {
    if (!cache) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "cache must not be NULL");
    *cache = (convt1d_weight_cache *)calloc(1, sizeof(convt1d_weight_cache));
    return *cache ? CONVT1D_SUCCESS : convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "weight cache: out of host memory");
}
convt1d_status convt1d_weight_cache_clear(convt1d_weight_cache *cache) {
    (void)cache;
    return CONVT1D_SUCCESS;
}
void convt1d_weight_cache_destroy(convt1d_weight_cache *cache) { free(cache); }
convt1d_status convt1d_weight_cache_info(const convt1d_weight_cache *cache, size_t *bytes, int *entries,
                                         uint64_t *uses) {
    if (!cache) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "cache must not be NULL");
    if (bytes) *bytes = 0;
    if (entries) *entries = 0;
    if (uses) *uses = 0;
    return CONVT1D_SUCCESS;
}
