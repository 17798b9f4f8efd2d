/* Persistent launches for the fused one-phase kernels (fwd_phase_fused.cu, bwd_input_phase_fused.cu,
 * bwd_weight_phase_fused.cu). Kept out of
 * kernels.cuh, which the CPU emulators of the kernels (tests/cuda/emu) compile with a host compiler that does not
 * know the <<<...>>> launch syntax. */
#pragma once
#include "kernels.cuh"

/* Persistent launch of a kernel whose blocks loop over `tiles` tiles (fwd_phase_fused.cu,
 * bwd_input_phase_fused.cu): as many blocks as fit on the device at once, at most `tiles`. The kernel's dynamic
 * shared-memory limit (per function and per device) and its blocks per SM are cached per device in `cache`,
 * one per kernel instantiation (a thread_local static of the caller: a driver call per launch costs
 * microseconds that latency-bound calls notice). NOT_SUPPORTED, without an error, where `smem` does not fit. */
struct convt1d_persistent_cache {
    static constexpr int DEVICES = 64;
    size_t smem_set[DEVICES] = {}, per_sm_smem[DEVICES] = {};
    int per_sm[DEVICES] = {};
};
/* The grid of a persistent launch: as many blocks as fit on the device at once, at most `tiles`. Also for callers
 * that size per-block scratch before launching (bwd_weight_phase_fused.cu). NOT_SUPPORTED, without an error, where
 * `smem` does not fit. */
template <typename Args>
convt1d_status convt1d_persistent_grid(void (*kern)(Args), convt1d_persistent_cache &c, int tiles, int threads, size_t smem,
                                       int *grid) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev >= convt1d_persistent_cache::DEVICES) {
        (void)cudaGetLastError();
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    if (smem > c.smem_set[dev]) {
        if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return CONVT1D_ERROR_NOT_SUPPORTED;
        }
        c.smem_set[dev] = smem;
    }
    if (c.per_sm_smem[dev] != smem) {
        int b = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kern, threads, smem) != cudaSuccess || b < 1) {
            (void)cudaGetLastError();
            return CONVT1D_ERROR_NOT_SUPPORTED;
        }
        c.per_sm[dev] = b;
        c.per_sm_smem[dev] = smem;
    }
    const int sms = convt1d_sm_count() > 0 ? convt1d_sm_count() : 132, most = c.per_sm[dev] * sms;
    *grid = tiles < most ? tiles : most;
    return CONVT1D_SUCCESS;
}

template <typename Args>
convt1d_status convt1d_launch_persistent(void (*kern)(Args), convt1d_persistent_cache &c, const Args &a, int tiles,
                                         int threads, size_t smem, cudaStream_t stream, const char *what) {
    int grid = 0;
    const convt1d_status st = convt1d_persistent_grid(kern, c, tiles, threads, smem, &grid);
    if (st != CONVT1D_SUCCESS) return st;
    kern<<<grid, threads, smem, stream>>>(a);
    return convt1d_cuda_check(what);
}
