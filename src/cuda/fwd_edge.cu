/* The last few output columns of a forward, o in [o_lo, L_out), for every sample and output channel (groups 1):
 *   y[n, co, o] = bias[co] + sum_{ci, k} x[n, ci, l] w[ci, co, k],  l = (o + p - k*d) / s where that divides and
 *   0 <= l < L_in.
 * The register-A wgmma forward drops a last position tile that holds a few valid positions when that saves a
 * round of its persistent grid (codec_dec_s8: 1025 plane positions per sample, the ninth tile holds one; fwd_wgmma.cu,
 * run_rs), and this kernel writes those outputs, beside the forward on the SMs its last, partial round leaves idle.
 * It is small work (codec_dec_s8: 4 columns, 38M multiply-adds); what it costs is bytes from L2 per SM. w = [ci][co][K]
 * is read in 32-byte sectors that hold all K taps of one (ci, co), of which a column uses one or two.
 *
 * One block per (8 output channels, 4 columns, 8 samples): every column of the block uses the same sectors, so each
 * is fetched once per block (codec_dec_s8: w's 38 MB once over 96 blocks). The first version (one block per 32
 * channels and one column, session 15) fetched every sector once per column, 4x the bytes, and ran ~60-90 us on
 * the idle SMs, 35 us past the forward (run 404). x's values for the block's columns (a window of W positions per
 * input channel, one on codec_dec_s8) are staged in shared memory per chunk of channels, [channel][position][sample];
 * lane l takes channel l % 8 and two samples (one 8-byte shared load feeds two FMAs); the 16 warps share out the input
 * channels, kU at a time with their weight loads in flight together, and their partial sums are added in warp order
 * through shared memory (deterministic); fp32 sums (fp64 has its own kernels and never comes here). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "direct_common.cuh"
#include "kernels.cuh"

namespace {

using convt1d_direct::Elem;

constexpr int kCoB = 8;      /* output channels per block: lane l takes channel l % 8 */
constexpr int kNB = 8;       /* samples per block */
constexpr int kNH = kNB * kCoB / 32; /* samples per lane (2): lanes 8q .. 8q + 7 take samples 2q, 2q + 1 */
constexpr int kCE = 4;       /* output columns per block */
constexpr int kWarps = 16;   /* the input channels of a staged chunk dealt out over the warps */
constexpr int kU = 16;       /* channels per warp whose weight loads are in flight together */
constexpr int kXs = 12288;   /* staged x, floats (48 KB): a chunk of channels x W positions x kNB samples */
static_assert(kNH == 2, "one 8-byte shared load per tap feeds a lane's samples");

struct EdgeArgs {
    int N, cin, cout, L_in, L_out, K, s, p, d, o_lo;
};

/* The taps that reach column o: k = k0 + j*ks, j < cnt, each reading x at l = l0 - j*ls. (o + p - k*d) must divide by s
 * (true for one residue of k modulo ks = s / gcd(s, d), or none) and 0 <= l < L_in bounds k on both sides. */
struct ColTaps {
    int k0, ks, l0, ls, cnt;
};

__device__ ColTaps col_taps(const EdgeArgs &a, int o) {
    ColTaps c{0, 1, 0, 0, 0};
    if (o >= a.L_out) return c;
    const int u = o + a.p; /* >= 0 */
    int r = -1;
    for (int k = 0; k < a.s && r < 0; ++k)
        if ((u - k * a.d) % a.s == 0) r = k;
    if (r < 0) return c;
    int g = a.s, h = a.d;
    while (h) {
        const int t = g % h;
        g = h;
        h = t;
    }
    c.ks = a.s / g;
    const int64_t need = u - (int64_t)a.s * a.L_in + 1; /* l < L_in  <=>  k*d >= need */
    const int klo = need <= 0 ? 0 : (int)((need + a.d - 1) / a.d);
    const int khi = min(a.K - 1, u / a.d); /* l >= 0 */
    c.k0 = klo <= r ? r : r + (klo - r + c.ks - 1) / c.ks * c.ks;
    if (c.k0 > khi) return c;
    c.cnt = (khi - c.k0) / c.ks + 1;
    c.l0 = (u - c.k0 * a.d) / a.s;
    c.ls = c.ks * a.d / a.s;
    return c;
}

template <typename T>
__global__ void __launch_bounds__(kWarps * 32) fwd_edge_kernel(const EdgeArgs a, const T *__restrict__ x,
                                                               const T *__restrict__ w, const T *__restrict__ bias,
                                                               T *__restrict__ y) {
    __shared__ float4 sm4[kXs / 4]; /* x's window while summing; then the warps' partial sums */
    float *sm = reinterpret_cast<float *>(sm4);
    static_assert(kWarps * kCE * kNH * 32 <= kXs, "the partial sums reuse the staging buffer");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int co = blockIdx.x * kCoB + lane % kCoB, nh = lane / kCoB;
    const int oc = a.o_lo + (int)blockIdx.y * kCE, n0 = (int)blockIdx.z * kNB;
    ColTaps ct[kCE];
    int lmin = INT_MAX, lmax = -1; /* the window of x the block's columns read */
#pragma unroll
    for (int e = 0; e < kCE; ++e) {
        ct[e] = col_taps(a, oc + e);
        if (ct[e].cnt) {
            lmax = max(lmax, ct[e].l0);
            lmin = min(lmin, ct[e].l0 - (ct[e].cnt - 1) * ct[e].ls);
        }
    }
#pragma unroll
    for (int e = 0; e < kCE; ++e) ct[e].l0 -= lmin; /* positions relative to the window from here on */
    float acc[kCE][kNH];
#pragma unroll
    for (int e = 0; e < kCE; ++e)
#pragma unroll
        for (int i = 0; i < kNH; ++i) acc[e][i] = 0.f;
    if (lmax >= 0) { /* block-uniform: else no tap reaches the block's columns (bias only) */
        const int W = lmax - lmin + 1, cc = kXs / (W * kNB); /* cc >= 1: convt1d_fwd_edge checks W */
        for (int c0 = 0; c0 < a.cin; c0 += cc) {
            const int nc = min(cc, a.cin - c0);
            __syncthreads(); /* the last chunk's readers are done */
            const int nv = nc * W * kNB;
            for (int v0 = threadIdx.x; v0 < nv; v0 += kWarps * 32 * kU) { /* kU loads per thread in flight at once */
                float xv[kU];
#pragma unroll
                for (int u = 0; u < kU; ++u) {
                    const int v = v0 + u * kWarps * 32, wl = v % W, n = (v / W) % kNB, c = v / (W * kNB);
                    xv[u] = v < nv && n0 + n < a.N
                                ? Elem<T>::load(x[((int64_t)(n0 + n) * a.cin + c0 + c) * a.L_in + lmin + wl])
                                : 0.f;
                }
#pragma unroll
                for (int u = 0; u < kU; ++u) {
                    const int v = v0 + u * kWarps * 32, wl = v % W, n = (v / W) % kNB, c = v / (W * kNB);
                    if (v < nv) sm[(c * W + wl) * kNB + n] = xv[u];
                }
            }
            __syncthreads();
            if (co >= a.cout) continue;
            /* kU channels per warp at a time: their weight loads are issued together (a warp walking its channels
             * one dependent load after another is latency-bound), then the FMAs. */
            for (int cb = warp; cb < nc; cb += kWarps * kU) {
#pragma unroll
                for (int e = 0; e < kCE; ++e)
                    for (int j = 0; j < ct[e].cnt; ++j) {
                        const int k = ct[e].k0 + j * ct[e].ks, xo = (ct[e].l0 - j * ct[e].ls) * kNB + nh * kNH;
                        float wv[kU];
#pragma unroll
                        for (int u = 0; u < kU; ++u) {
                            const int c = cb + u * kWarps;
                            wv[u] = c < nc ? Elem<T>::load(w[((int64_t)(c0 + c) * a.cout + co) * a.K + k]) : 0.f;
                        }
#pragma unroll
                        for (int u = 0; u < kU; ++u) {
                            const int c = cb + u * kWarps;
                            if (c >= nc) break;
                            const float2 xv = *reinterpret_cast<const float2 *>(sm + c * W * kNB + xo);
                            acc[e][0] = fmaf(xv.x, wv[u], acc[e][0]);
                            acc[e][1] = fmaf(xv.y, wv[u], acc[e][1]);
                        }
                    }
            }
        }
    }
    __syncthreads(); /* done with the staged x */
#pragma unroll
    for (int e = 0; e < kCE; ++e)
#pragma unroll
        for (int i = 0; i < kNH; ++i) sm[(warp * kCE * kNH + e * kNH + i) * 32 + lane] = acc[e][i];
    __syncthreads();
    /* Output q = (column e, sample i of the lane's four) x 32 lanes: the 8 warps' sums in warp order, the bias. */
    for (int q = threadIdx.x; q < kCE * kNH * 32; q += kWarps * 32) {
        const int ln = q & 31, ei = q >> 5, e = ei / kNH, i = ei - e * kNH;
        const int c_out = blockIdx.x * kCoB + ln % kCoB, n = n0 + ln / kCoB * kNH + i, o = oc + e;
        if (c_out >= a.cout || n >= a.N || o >= a.L_out) continue;
        float v = 0.f;
        for (int r = 0; r < kWarps; ++r) v += sm[(r * kCE * kNH + ei) * 32 + ln];
        if (bias) v += Elem<T>::load(bias[c_out]);
        y[((int64_t)n * a.cout + c_out) * a.L_out + o] = Elem<T>::store(v);
    }
}

/* TRIAL (session 41, run 405 A/B, CONVT1D_EDGE_V1=1): session 15's kernel, one block per (32 channels, column). */
constexpr int kWarpsV1 = 32;     /* 1024 threads: the input channels over the warps, the output channels over the lanes */
constexpr int kNBV1 = 8;         /* samples summed per pass */
constexpr int kCiChunkV1 = 1024; /* input channels of x staged per chunk (kNBV1 x kCiChunkV1 floats = 32 KB) */


template <typename T>
__global__ void __launch_bounds__(kWarpsV1 * 32) fwd_edge_kernel_v1(const EdgeArgs a, const T *__restrict__ x,
                                                               const T *__restrict__ w, const T *__restrict__ bias,
                                                               T *__restrict__ y) {
    /* x's column l of kNBV1 samples x kCiChunkV1 channels while summing; then the warps' partial sums */
    __shared__ float sm[kNBV1 * kCiChunkV1];
    static_assert(kWarpsV1 * kNBV1 * 32 <= kNBV1 * kCiChunkV1, "the partial sums reuse the staging buffer");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int co = blockIdx.x * 32 + lane, o = a.o_lo + (int)blockIdx.y;
    const bool co_ok = co < a.cout;
    /* one group of kNBV1 samples per block (blockIdx.z): the groups walked in turn in one block left hifigan_up1's edge
     * 11 us past the forward in bf16 (two groups; run 287), 4 us this way (run 292) */
    const int n0 = (int)blockIdx.z * kNBV1;
    float acc[kNBV1];
#pragma unroll
    for (int i = 0; i < kNBV1; ++i) acc[i] = 0.f;
    for (int k = 0; k < a.K; ++k) { /* the taps that reach column o (block-uniform) */
        const int t = o + a.p - k * a.d;
        if (t < 0 || t % a.s != 0 || t / a.s >= a.L_in) continue;
        const int l = t / a.s;
        for (int ci0 = 0; ci0 < a.cin; ci0 += kCiChunkV1) {
            const int nc = min(kCiChunkV1, a.cin - ci0);
            __syncthreads(); /* the last chunk's readers are done */
            for (int v = threadIdx.x; v < kNBV1 * kCiChunkV1; v += kWarpsV1 * 32) { /* all loads in flight at once */
                const int i = v / kCiChunkV1, c = v - i * kCiChunkV1;
                sm[v] = n0 + i < a.N && c < nc ? Elem<T>::load(x[((int64_t)(n0 + i) * a.cin + ci0 + c) * a.L_in + l]) : 0.f;
            }
            __syncthreads();
#pragma unroll 8
            for (int c = warp; c < nc; c += kWarpsV1) {
                const float wv = co_ok ? Elem<T>::load(w[((int64_t)(ci0 + c) * a.cout + co) * a.K + k]) : 0.f;
#pragma unroll
                for (int i = 0; i < kNBV1; ++i) acc[i] = fmaf(sm[i * kCiChunkV1 + c], wv, acc[i]);
            }
        }
    }
    __syncthreads(); /* done with the staged x */
#pragma unroll
    for (int i = 0; i < kNBV1; ++i) sm[(warp * kNBV1 + i) * 32 + lane] = acc[i];
    __syncthreads();
    if (warp < kNBV1) { /* warp i: sample n0 + i, the 32 warps' sums added in warp order, the bias, one store */
        float v = 0.f;
        for (int q = 0; q < kWarpsV1; ++q) v += sm[(q * kNBV1 + warp) * 32 + lane];
        if (co_ok && n0 + warp < a.N) {
            if (bias) v += Elem<T>::load(bias[co]);
            y[((int64_t)(n0 + warp) * a.cout + co) * a.L_out + o] = Elem<T>::store(v);
        }
    }
}

template <typename T>
convt1d_status launch(const EdgeArgs &a, const void *x, const void *w, const void *bias, void *y, cudaStream_t stream) {
    const char *v1 = convt1d_env("CONVT1D_EDGE_V1"); /* TRIAL (run 405 A/B): session 15's kernel */
    if (v1 && v1[0] == '1') {
        const dim3 grid((unsigned)((a.cout + 31) / 32), (unsigned)(a.L_out - a.o_lo), (unsigned)((a.N + kNBV1 - 1) / kNBV1));
        fwd_edge_kernel_v1<T><<<grid, kWarpsV1 * 32, 0, stream>>>(a, (const T *)x, (const T *)w, (const T *)bias, (T *)y);
        return convt1d_cuda_check("forward (edge columns): launch");
    }
    const dim3 grid((unsigned)((a.cout + kCoB - 1) / kCoB), (unsigned)((a.L_out - a.o_lo + kCE - 1) / kCE),
                    (unsigned)((a.N + kNB - 1) / kNB));
    fwd_edge_kernel<T><<<grid, kWarps * 32, 0, stream>>>(a, (const T *)x, (const T *)w, (const T *)bias, (T *)y);
    return convt1d_cuda_check("forward (edge columns): launch");
}

} // namespace

/* Whether convt1d_fwd_edge takes the columns o >= o_lo (rs_edge_drop asks before it drops a tile): index ranges, and
 * the x window of a block's columns, W <= (kCE - 1 + (K - 1)*d) / s + 2 positions, at least one channel of it staged. */
bool convt1d_fwd_edge_fits(const convt1d_problem &pr, int64_t o_lo) {
    const convt1d_params &P = pr.p;
    if (P.groups != 1 || o_lo < 0 || o_lo >= pr.out_length || pr.out_length - o_lo > 65535 || P.in_length > INT32_MAX ||
        pr.out_length > INT32_MAX / 2 || P.batch > 65535 * (int64_t)kNB || P.out_channels > 65535 * (int64_t)kCoB ||
        P.in_channels > INT32_MAX / 2 || P.padding > INT32_MAX / 4 || P.stride < 1 || P.stride > 64 || P.dilation < 1 ||
        P.dilation > 65535 || P.kernel_size > 4096 || (P.kernel_size - 1) * P.dilation > INT32_MAX / 4)
        return false;
    const int64_t W = (kCE - 1 + (P.kernel_size - 1) * P.dilation) / P.stride + 2;
    return W * kNB <= kXs;
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
