/* The last few output columns of a forward, o in [o_lo, L_out), for every sample and output channel (groups 1):
 *   y[n, co, o] = bias[co] + sum_{ci, k} x[n, ci, l] w[ci, co, k],  l = (o + p - k*d) / s where that divides and
 *   0 <= l < L_in.
 * The register-A wgmma forward drops a last position tile that holds a few valid positions when that saves a
 * round of its persistent grid (codec_dec_s8: 1025 plane positions per sample, the ninth tile holds one; fwd_wgmma.cu,
 * run_rs), and this kernel writes those outputs. It is small work (codec_dec_s8: 4 columns, 75 MFLOP) read from
 * a sliver of x and the weights once: one block per (32 output channels, output column, 8 samples); x's column staged
 * in shared memory with all its loads in flight, the lanes over the output channels, the 32 warps over the input
 * channels (many independent weight loads per thread: a first version with 8 warps walked its channels one dependent
 * load after another and took ~250 us on codec_dec_s8, run 144), the samples' sums in registers, the warps' partial
 * sums added in a fixed order through shared memory (deterministic); fp32 sums (fp64 has its own kernels and never
 * comes here).
 * It is bound by the latency of its weight loads (run 408), not by their bytes: blocks over all 4 columns, which
 * fetch each sector of w once instead of once per column, were slower in three forms (runs 405, 406, 409: 60-85 us
 * alone on codec_dec_s8 fp16 against 43), since they kept fewer loads in flight; 16 loads in flight per warp instead
 * of 8 took it to 33 us (run 410; design note, Session 41). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "direct_common.cuh"
#include "kernels.cuh"

namespace {

using convt1d_direct::Elem;

constexpr int kWarps = 32;     /* 1024 threads: the input channels over the warps, the output channels over the lanes */
constexpr int kNB = 8;         /* samples summed per pass */
constexpr int kCiChunk = 1024; /* input channels of x staged per chunk (kNB x kCiChunk floats = 32 KB) */

struct EdgeArgs {
    int N, cin, cout, L_in, L_out, K, s, p, d, o_lo;
};

template <typename T>
__global__ void __launch_bounds__(kWarps * 32) fwd_edge_kernel(const EdgeArgs a, const T *__restrict__ x,
                                                               const T *__restrict__ w, const T *__restrict__ bias,
                                                               T *__restrict__ y) {
    /* x's column l of kNB samples x kCiChunk channels while summing; then the warps' partial sums */
    __shared__ float sm[kNB * kCiChunk];
    static_assert(kWarps * kNB * 32 <= kNB * kCiChunk, "the partial sums reuse the staging buffer");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int co = blockIdx.x * 32 + lane, o = a.o_lo + (int)blockIdx.y;
    const bool co_ok = co < a.cout;
    /* one group of kNB samples per block (blockIdx.z): the groups walked in turn in one block left hifigan_up1's edge
     * 11 us past the forward in bf16 (two groups; run 287), 4 us this way (run 292) */
    const int n0 = (int)blockIdx.z * kNB;
    float acc[kNB];
#pragma unroll
    for (int i = 0; i < kNB; ++i) acc[i] = 0.f;
    for (int k = 0; k < a.K; ++k) { /* the taps that reach column o (block-uniform) */
        const int t = o + a.p - k * a.d;
        if (t < 0 || t % a.s != 0 || t / a.s >= a.L_in) continue;
        const int l = t / a.s;
        for (int ci0 = 0; ci0 < a.cin; ci0 += kCiChunk) {
            const int nc = min(kCiChunk, a.cin - ci0);
            __syncthreads(); /* the last chunk's readers are done */
            for (int v = threadIdx.x; v < kNB * kCiChunk; v += kWarps * 32) { /* all loads in flight at once */
                const int i = v / kCiChunk, c = v - i * kCiChunk;
                sm[v] = n0 + i < a.N && c < nc ? Elem<T>::load(x[((int64_t)(n0 + i) * a.cin + ci0 + c) * a.L_in + l]) : 0.f;
            }
            __syncthreads();
#pragma unroll 16
            for (int c = warp; c < nc; c += kWarps) { /* 16 weight loads in flight per warp */
                const float wv = co_ok ? Elem<T>::load(w[((int64_t)(ci0 + c) * a.cout + co) * a.K + k]) : 0.f;
#pragma unroll
                for (int i = 0; i < kNB; ++i) acc[i] = fmaf(sm[i * kCiChunk + c], wv, acc[i]);
            }
        }
    }
    __syncthreads(); /* done with the staged x */
#pragma unroll
    for (int i = 0; i < kNB; ++i) sm[(warp * kNB + i) * 32 + lane] = acc[i];
    __syncthreads();
    if (warp < kNB) { /* warp i: sample n0 + i, the 32 warps' sums added in warp order, the bias, one store */
        float v = 0.f;
        for (int q = 0; q < kWarps; ++q) v += sm[(q * kNB + warp) * 32 + lane];
        if (co_ok && n0 + warp < a.N) {
            if (bias) v += Elem<T>::load(bias[co]);
            y[((int64_t)(n0 + warp) * a.cout + co) * a.L_out + o] = Elem<T>::store(v);
        }
    }
}

template <typename T>
convt1d_status launch(const EdgeArgs &a, const void *x, const void *w, const void *bias, void *y, cudaStream_t stream) {
    const dim3 grid((unsigned)((a.cout + 31) / 32), (unsigned)(a.L_out - a.o_lo), (unsigned)((a.N + kNB - 1) / kNB));
    fwd_edge_kernel<T><<<grid, kWarps * 32, 0, stream>>>(a, (const T *)x, (const T *)w, (const T *)bias, (T *)y);
    return convt1d_cuda_check("forward (edge columns): launch");
}

} // namespace

/* Whether convt1d_fwd_edge takes the columns o >= o_lo (its index ranges): rs_edge_drop drops a tile only then. */
bool convt1d_fwd_edge_fits(const convt1d_problem &pr, int64_t o_lo) {
    const convt1d_params &P = pr.p;
    return P.groups == 1 && o_lo >= 0 && o_lo < pr.out_length && pr.out_length - o_lo <= 65535 &&
           P.in_length <= INT32_MAX && pr.out_length <= INT32_MAX && P.batch <= 65535 * (int64_t)kNB &&
           P.padding <= INT32_MAX / 4 && (P.kernel_size - 1) * P.dilation <= INT32_MAX / 4;
}

convt1d_status convt1d_fwd_edge(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                int64_t o_lo, cudaStream_t stream) {
    const convt1d_params &P = pr.p;
    if (!convt1d_fwd_edge_fits(pr, o_lo)) return CONVT1D_ERROR_NOT_SUPPORTED;
    EdgeArgs a;
    a.N = (int)P.batch, a.cin = (int)P.in_channels, a.cout = (int)P.out_channels;
    a.L_in = (int)P.in_length, a.L_out = (int)pr.out_length, a.K = (int)P.kernel_size;
    a.s = (int)P.stride, a.p = (int)P.padding, a.d = (int)P.dilation, a.o_lo = (int)o_lo;
    switch (pr.dtype) {
    case CONVT1D_F32: return launch<float>(a, x, w, bias, y, stream);
    case CONVT1D_F16: return launch<__half>(a, x, w, bias, y, stream);
    case CONVT1D_BF16: return launch<__nv_bfloat16>(a, x, w, bias, y, stream);
    default: return CONVT1D_ERROR_NOT_SUPPORTED;
    }
}
