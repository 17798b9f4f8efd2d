/* The last few output columns of a forward, o in [o_lo, L_out), for every sample and output channel (groups 1):
 *   y[n, co, o] = bias[co] + sum_{ci, k} x[n, ci, l] w[ci, co, k],  l = (o + p - k*d) / s where that divides and
 *   0 <= l < L_in.
 * The register-A wgmma forward drops a last position tile that holds a few valid positions when that saves a
 * round of its persistent grid (codec_dec_s8: 1025 plane positions per sample, the ninth tile holds one; fwd_wgmma.cu,
 * run_rs), and this kernel writes those outputs, on a second stream beside the forward. It is small work
 * (codec_dec_s8: 4 columns, 75 MFLOP) read from a sliver of x and the weights: one block per (32 output channels, 4
 * columns, 8 samples); x's columns staged in shared memory with all their loads in flight, the lanes over the output
 * channels, the 32 warps over the input channels (many independent weight loads per thread: a first version with 8
 * warps walked its channels one dependent load after another and took ~250 us on codec_dec_s8, run 144), the sums in
 * registers, the warps' partial sums added in a fixed order through shared memory (deterministic); fp32 sums (fp64 has
 * its own kernels and never comes here). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "direct_common.cuh"
#include "kernels.cuh"

namespace {

using convt1d_direct::Elem;

constexpr int kWarps = 32;      /* 1024 threads: the input channels over the warps, the output channels over the lanes */
constexpr int kNB = 8;          /* samples per block (grid.z) */
constexpr int kCB = 4;          /* output columns per block (grid.y) */
constexpr int kTMax = 132;      /* taps reaching one column: at most the merged taps T <= 129 (spread <= 128 planes) */
constexpr int kStage = 10240;   /* floats of x staged per chunk: kNB samples x nl columns of x x chunk channels */

struct EdgeArgs {
    int N, cin, cout, L_in, L_out, K, s, p, d, o_lo;
    int nl;    /* x columns a block's kCB output columns can read: l in [lmin, lmin + nl) */
    int chunk; /* input channels staged per pass: kStage / (kNB * nl) */
};

/* One block: 32 output channels (lanes) x kCB consecutive columns x kNB samples. Its columns' taps (k, l) are listed
 * once in shared memory; x's columns [lmin, lmin + nl) of the block's samples are staged chunk by chunk (all loads in
 * flight); then each warp walks its input channels and, per channel, every (column, tap) pair: the weights of one
 * (ci, co) for the block's taps share a sector or two (w[ci][co][0..K)), so one block reads them once, not once per
 * column (session 26: one block per column read each weight sector per column, 8-16x the bytes used, and took 34-89 us
 * on the vocoder layers, standing out past the forward by 10-27 us, run 287). Sums in fp32, the warps' partial sums
 * added in warp order (deterministic). */
template <typename T>
__global__ void __launch_bounds__(kWarps * 32) fwd_edge_kernel(const EdgeArgs a, const T *__restrict__ x,
                                                               const T *__restrict__ w, const T *__restrict__ bias,
                                                               T *__restrict__ y) {
    __shared__ float sm[kStage]; /* x staged while summing; then the warps' partial sums (kWarps x kNB x 32) */
    __shared__ int tap_k[kCB][kTMax], tap_l[kCB][kTMax], tap_n[kCB];
    static_assert(kWarps * kNB * 32 <= kStage, "the partial sums reuse the staging buffer");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int co = blockIdx.x * 32 + lane, o0 = a.o_lo + (int)blockIdx.y * kCB, n0 = (int)blockIdx.z * kNB;
    const bool co_ok = co < a.cout;
    /* the first x column any of the block's columns reads (floor division: o + p - k*d may be negative) */
    const int tmin = o0 + a.p - (a.K - 1) * a.d;
    const int lmin = tmin >= 0 ? tmin / a.s : -((-tmin + a.s - 1) / a.s);
    if (threadIdx.x < kCB) {
        const int j = threadIdx.x, o = o0 + j;
        int cnt = 0;
        for (int k = 0; k < a.K && o < a.L_out; ++k) {
            const int t = o + a.p - k * a.d;
            if (t < 0 || t % a.s != 0 || t / a.s >= a.L_in || cnt == kTMax) continue;
            tap_k[j][cnt] = k;
            tap_l[j][cnt] = t / a.s - lmin;
            ++cnt;
        }
        tap_n[j] = cnt;
    }
    float acc[kCB][kNB];
#pragma unroll
    for (int j = 0; j < kCB; ++j)
#pragma unroll
        for (int i = 0; i < kNB; ++i) acc[j][i] = 0.f;
    const int nl = a.nl, chunk = a.chunk;
    for (int ci0 = 0; ci0 < a.cin; ci0 += chunk) {
        const int nc = min(chunk, a.cin - ci0);
        __syncthreads(); /* the last chunk's readers are done (and the tap lists written) */
        for (int v = threadIdx.x; v < kNB * nl * chunk; v += kWarps * 32) { /* all loads in flight at once */
            const int c = v % chunk, r = v / chunk, i = r / nl, l = lmin + (r - i * nl);
            sm[v] = n0 + i < a.N && c < nc && l >= 0 && l < a.L_in
                        ? Elem<T>::load(x[((int64_t)(n0 + i) * a.cin + ci0 + c) * a.L_in + l]) : 0.f;
        }
        __syncthreads();
#pragma unroll 2
        for (int c = warp; c < nc; c += kWarps) {
            const T *wr = w + ((int64_t)(ci0 + c) * a.cout + co) * a.K;
#pragma unroll
            for (int j = 0; j < kCB; ++j) {
                for (int t = 0; t < tap_n[j]; ++t) {
                    const float wv = co_ok ? Elem<T>::load(wr[tap_k[j][t]]) : 0.f;
                    const float *xs = sm + tap_l[j][t] * chunk + c;
#pragma unroll
                    for (int i = 0; i < kNB; ++i) acc[j][i] = fmaf(xs[i * nl * chunk], wv, acc[j][i]);
                }
            }
        }
    }
#pragma unroll
    for (int j = 0; j < kCB; ++j) { /* column j: the warps' sums added in warp order, the bias, one store per sample */
        __syncthreads(); /* done with the staged x / the previous column's sums */
#pragma unroll
        for (int i = 0; i < kNB; ++i) sm[(warp * kNB + i) * 32 + lane] = acc[j][i];
        __syncthreads();
        const int o = o0 + j;
        if (warp < kNB && o < a.L_out) {
            float v = 0.f;
            for (int q = 0; q < kWarps; ++q) v += sm[(q * kNB + warp) * 32 + lane];
            if (co_ok && n0 + warp < a.N) {
                if (bias) v += Elem<T>::load(bias[co]);
                y[((int64_t)(n0 + warp) * a.cout + co) * a.L_out + o] = Elem<T>::store(v);
            }
        }
    }
}

template <typename T>
convt1d_status launch(const EdgeArgs &a, const void *x, const void *w, const void *bias, void *y, cudaStream_t stream) {
    const dim3 grid((unsigned)((a.cout + 31) / 32), (unsigned)((a.L_out - a.o_lo + kCB - 1) / kCB),
                    (unsigned)((a.N + kNB - 1) / kNB));
    fwd_edge_kernel<T><<<grid, kWarps * 32, 0, stream>>>(a, (const T *)x, (const T *)w, (const T *)bias, (T *)y);
    return convt1d_cuda_check("forward (edge columns): launch");
}

} // namespace

convt1d_status convt1d_fwd_edge(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                int64_t o_lo, cudaStream_t stream) {
    const convt1d_params &P = pr.p;
    if (P.groups != 1 || o_lo < 0 || o_lo >= pr.out_length || pr.out_length - o_lo > 65535 || P.in_length > INT32_MAX ||
        pr.out_length > INT32_MAX || P.batch > INT32_MAX || P.padding > INT32_MAX / 4 ||
        (P.kernel_size - 1) * P.dilation > INT32_MAX / 4)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    EdgeArgs a;
    a.N = (int)P.batch, a.cin = (int)P.in_channels, a.cout = (int)P.out_channels;
    a.L_in = (int)P.in_length, a.L_out = (int)pr.out_length, a.K = (int)P.kernel_size;
    a.s = (int)P.stride, a.p = (int)P.padding, a.d = (int)P.dilation, a.o_lo = (int)o_lo;
    /* Taps reaching one column: at most the merged taps (K-1)*d/s + 1 (their x columns are s apart in t); the
     * register-A forward, the only caller, takes spreads up to 128 plane positions (T <= 129). */
    if (((int64_t)(a.K - 1) * a.d) / a.s + 1 > kTMax || a.N > 65535 * kNB) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.nl = (int)(((int64_t)kCB - 1 + (int64_t)(a.K - 1) * a.d) / a.s + 2);
    a.chunk = kStage / (kNB * a.nl);
    if (a.chunk < 1) return CONVT1D_ERROR_NOT_SUPPORTED;
    switch (pr.dtype) {
    case CONVT1D_F32: return launch<float>(a, x, w, bias, y, stream);
    case CONVT1D_F16: return launch<__half>(a, x, w, bias, y, stream);
    case CONVT1D_BF16: return launch<__nv_bfloat16>(a, x, w, bias, y, stream);
    default: return CONVT1D_ERROR_NOT_SUPPORTED;
    }
}
