/* Forward of layers whose taps all land on one phase of y (dilation a multiple of the stride, KernelBench 79):
 * phase r is a stride-1 problem (one_phase_problem, kernels.cuh) and the other s-1 phases hold only the bias.
 * So: that stride-1 problem by the tensor-core forward into scratch, then one pass writing y (phase r from
 * the scratch, the bias elsewhere). The phase-merged forward instead multiplied s-1 rows of zero taps per
 * useful row (KernelBench 79: half its tensor-core work) and paid for it most in split TF32 (strict fp32),
 * which is compute-bound. */
#include <limits.h>
#include <stdlib.h>

#include "kernels.cuh"

namespace {

/* y[row][t] = t = q*s + r (q < Q) ? yr[row][q] : bias[row % C_out] (0 without bias). Thread v of a row
 * writes one 16-byte vector of y (the row's first element is rarely 16-byte aligned: the elements before
 * the first aligned one go to thread 0 one by one, like the tail), gathering its values from yr with
 * scalar loads (contiguous across the warp). Element-wise stores left the pass at a quarter of the
 * bandwidth, costing more than the forward itself (run 96: 0.88 ms for KernelBench 79 fp32). */
template <typename T>
__device__ __forceinline__ T phase_value(const T *src, T b, int t, int s, int r, int Q) {
    const int u = t - r;
    if (u < 0) return b;
    const int q = u / s;
    return u - q * s == 0 && q < Q ? src[q] : b;
}

/* 16-byte vectors per thread: 4 for 16-bit data (short blocks were launch-bound: KernelBench 79 bf16 pass
 * 0.305 -> 0.260 ms), 1 for fp32 (4 was slower there: 0.542 -> 0.596 ms; run 100). */
template <typename T> __host__ __device__ constexpr int scatter_vecs() { return sizeof(T) == 2 ? 4 : 1; }

template <typename T>
__global__ void __launch_bounds__(256) phase_scatter_kernel(const T *yr, const T *bias, T *y, int64_t rows, int64_t cout,
                                                            int L_out, int Q, int s, int r) {
    constexpr int VE = 16 / (int)sizeof(T);
    for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
        const T b = bias ? bias[row % cout] : T(0);
        const T *src = yr + row * (int64_t)Q;
        T *dst = y + row * (int64_t)L_out;
        const int a = (int)((VE - ((uintptr_t)dst / sizeof(T)) % VE) % VE); /* first 16-byte-aligned element */
        if (blockIdx.x == 0 && threadIdx.x == 0)
            for (int t = 0; t < a && t < L_out; ++t) dst[t] = phase_value(src, b, t, s, r, Q);
#pragma unroll
        for (int j = 0; j < scatter_vecs<T>(); ++j) {
            const int v = (blockIdx.x * scatter_vecs<T>() + j) * 256 + threadIdx.x, t0 = a + v * VE;
            if (t0 >= L_out) break;
            if (t0 + VE > L_out) { /* the tail */
                for (int t = t0; t < L_out; ++t) dst[t] = phase_value(src, b, t, s, r, Q);
                break;
            }
            union {
                uint4 u;
                T e[VE];
            } w;
            const int u0 = t0 - r;
            int q = u0 >= 0 ? u0 / s : -((-u0 + s - 1) / s), ph = u0 - q * s;
#pragma unroll
            for (int i = 0; i < VE; ++i) {
                w.e[i] = ph == 0 && q >= 0 && q < Q ? src[q] : b;
                if (++ph == s) {
                    ph = 0;
                    ++q;
                }
            }
            *reinterpret_cast<uint4 *>(dst + t0) = w.u;
        }
    }
}

template <typename T>
void scatter(const void *yr, const void *bias, void *y, int64_t rows, int64_t cout, int64_t L_out, int64_t Q, int s, int r,
             cudaStream_t stream) {
    constexpr int VE = 16 / (int)sizeof(T);
    constexpr int per_block = 256 * scatter_vecs<T>();
    const dim3 grid((unsigned)((L_out / VE + per_block) / per_block), (unsigned)(rows < 65535 ? rows : 65535));
    phase_scatter_kernel<T><<<grid, 256, 0, stream>>>(static_cast<const T *>(yr), static_cast<const T *>(bias),
                                                      static_cast<T *>(y), rows, cout, (int)L_out, (int)Q, s, r);
}

}  // namespace

convt1d_status convt1d_fwd_one_phase(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                     cudaStream_t stream) {
    /* CONVT1D_FWD_PHASE=0 off, 1 on wherever it applies; unset: where it was measured to gain (below). */
    const char *ev = convt1d_env("CONVT1D_FWD_PHASE");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    convt1d_problem q;
    int r = 0;
    if (env == 0 || pr.dtype == CONVT1D_F64 || pr.w_adjoint || !one_phase_problem(pr, &q, &r))
        return CONVT1D_ERROR_NOT_SUPPORTED;
    /* Where it pays (run 97, KernelBench 79, ms, phase / phase-merged): strict fp32 1.000 / 1.048, fp16 and
     * bf16 0.535 / 0.706; TF32 loses (0.877 / 0.810: the scatter pass costs more than the halved tensor-core
     * work saves), and so do small outputs (kernelbench_79_small: two more launches and scratch). */
    const bool pays = pr.dtype == CONVT1D_F16 || pr.dtype == CONVT1D_BF16 ||
                      (pr.dtype == CONVT1D_F32 && pr.math == CONVT1D_MATH_STRICT_FP32);
    if (env < 0 && (!pays || P.batch * P.out_channels * pr.out_length < ((int64_t)1 << 22))) return CONVT1D_ERROR_NOT_SUPPORTED;
    /* The full stride-1 forward: its output_padding must be legal (< max(1, m)). */
    const int64_t op = q.p.output_padding, m = q.p.dilation, Q = q.out_length, s = P.stride;
    if (op < 0 || op >= (m > 1 ? m : 1) || pr.out_length >= INT_MAX / 2) return CONVT1D_ERROR_NOT_SUPPORTED;
    const size_t es = convt1d_dtype_size(pr.dtype);
    const int64_t rows = P.batch * P.out_channels;
    void *yr = nullptr;
    if (cudaMallocAsync(&yr, (size_t)(rows * Q) * es, stream) != cudaSuccess) {
        (void)cudaGetLastError();
        return CONVT1D_ERROR_NOT_SUPPORTED; /* no room: the phase-merged forward needs none */
    }
    convt1d_status st = convt1d_fwd_tc(q, x, w, bias, yr, stream);
    if (st == CONVT1D_SUCCESS) {
        if (es == 4)
            scatter<float>(yr, bias, y, rows, P.out_channels, pr.out_length, Q, (int)s, r, stream);
        else
            scatter<unsigned short>(yr, bias, y, rows, P.out_channels, pr.out_length, Q, (int)s, r, stream);
        st = convt1d_cuda_check("forward (one phase): scatter launch");
    }
    cudaFreeAsync(yr, stream);
    return st;
}
