/* Forward of layers whose taps all land on one phase of y (dilation a multiple of the stride, KernelBench 79).
 *
 * With d = m*s, l*s - p + k*d = s*(l + k*m + c) + r where -p = c*s + r, 0 <= r < s: every product lands on
 * phase r of y, and the other s-1 phases hold only the bias. Phase r, y_r[n, co, q] = y[n, co, q*s + r]
 * (q < Q = ceil((L_out - r) / s)), is the stride-1 transposed convolution of x with the same weights,
 * dilation m and padding -c (c <= 0), output length Q. So: that stride-1 problem by the tensor-core
 * forward into scratch, then one pass writing y (phase r from the scratch, the bias elsewhere). The
 * phase-merged forward instead multiplied s-1 rows of zero taps per useful row (KernelBench 79: half its
 * tensor-core work) and paid for it most in split TF32 (strict fp32), which is compute-bound. */
#include <stdlib.h>

#include "kernels.cuh"

namespace {

/* y[row][t] = t = q*s + r (q < Q) ? yr[row][q] : bias[row % C_out] (0 without bias). A block covers 2048
 * positions of a row, thread i of it positions i, i + 256, ...: each warp access is contiguous (eight
 * consecutive positions per thread made every store instruction touch 16 sectors for 64 bytes, and the pass
 * cost more than the forward itself). (q, phase) is found once and stepped by 256 positions. */
template <typename T>
__global__ void __launch_bounds__(256) phase_scatter_kernel(const T *yr, const T *bias, T *y, int64_t rows, int64_t cout,
                                                            int64_t L_out, int64_t Q, int s, int r) {
    const int64_t t0 = (int64_t)blockIdx.x * 2048 + threadIdx.x;
    if (t0 >= L_out) return;
    const int64_t u0 = t0 - r;
    const int64_t q0 = u0 >= 0 ? u0 / s : -((-u0 + s - 1) / s); /* floor */
    const int ph0 = (int)(u0 - q0 * s), dq = 256 / s, dph = 256 % s;
    for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
        const T b = bias ? bias[row % cout] : T(0);
        const T *src = yr + row * Q;
        T *dst = y + row * L_out;
        int64_t q = q0;
        int ph = ph0;
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            const int64_t t = t0 + 256 * i;
            if (t >= L_out) break;
            dst[t] = ph == 0 && q >= 0 && q < Q ? src[q] : b;
            q += dq;
            ph += dph;
            if (ph >= s) {
                ph -= s;
                ++q;
            }
        }
    }
}

template <typename T>
void scatter(const void *yr, const void *bias, void *y, int64_t rows, int64_t cout, int64_t L_out, int64_t Q, int s, int r,
             cudaStream_t stream) {
    const dim3 grid((unsigned)((L_out + 2047) / 2048), (unsigned)(rows < 65535 ? rows : 65535));
    phase_scatter_kernel<T><<<grid, 256, 0, stream>>>(static_cast<const T *>(yr), static_cast<const T *>(bias),
                                                      static_cast<T *>(y), rows, cout, L_out, Q, s, r);
}

}  // namespace

convt1d_status convt1d_fwd_one_phase(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                     cudaStream_t stream) {
    /* CONVT1D_FWD_PHASE=0 off, 1 on wherever it applies; unset: the modes measured to gain (see api.cu). */
    const char *ev = getenv("CONVT1D_FWD_PHASE");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    if (env == 0 || P.stride < 2 || P.dilation % P.stride != 0 || pr.dtype == CONVT1D_F64 || pr.w_adjoint)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (env < 0 && !(pr.dtype == CONVT1D_F32 && pr.math == CONVT1D_MATH_STRICT_FP32)) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t s = P.stride, c = P.padding == 0 ? 0 : -((P.padding + s - 1) / s);
    const int r = (int)(-P.padding - c * s);
    const int64_t Q = (pr.out_length - r + s - 1) / s, m = P.dilation / s;
    /* A valid stride-1 problem of output length Q: Q minus its length at output_padding 0 must be a
     * legal output_padding (< max(1, m)); the kernels then see nothing unusual. */
    const int64_t op = Q - ((P.in_length - 1) + 2 * c + m * (P.kernel_size - 1) + 1);
    if (Q < 1 || op < 0 || op >= (m > 1 ? m : 1)) return CONVT1D_ERROR_NOT_SUPPORTED;
    convt1d_problem q = pr;
    q.p.stride = 1;
    q.p.padding = -c;
    q.p.dilation = m;
    q.p.output_padding = op;
    q.out_length = Q;
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
