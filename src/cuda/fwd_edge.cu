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
 * Each warp load of w touches 32 sectors for 64 useful bytes (a sector holds all taps of one (ci, co)), and each
 * column's block fetches them again. Blocks over 4 columns, so that a sector is fetched once per block, lost (runs
 * 405-406, codec_dec_s8 fp16, alone / beside the forward, us): 16 channels x 8 warps 85 / 132, 8 channels x 16 warps
 * 60 / 112, this kernel 43 / 91: fewer bytes, but fewer loads in flight (design note, Session 41). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <type_traits>

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
#pragma unroll 8
            for (int c = warp; c < nc; c += kWarps) {
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

/* The record kernel: where all taps a block needs sit in one 16-byte piece of each (ci, co)'s tap record (K*es a
 * multiple of 16 bytes; codec_dec_s8, hifigan_up1: taps 8..11 of 16), one 16-byte load per (ci, co) serves all of a
 * block's columns. Run 408 (Nsight Compute, fwd_edge_kernel on codec_dec_s8 fp16): 47 us, L1/TEX throughput 61%,
 * stalls mostly on those loads; each warp load touches 32 sectors however few bytes it uses, so the cost is sectors
 * per SM, and fwd_edge_kernel pays them once per column. Here: one block per (16 output channels, 4 columns, 8
 * samples), lane l takes channel l % 16 and samples 4 (l / 16) .. + 3; 16 warps share out the input channels, 8 at a
 * time with their loads in flight together; x's window staged as in run 405 ([channel][position][sample]); the
 * warps' sums added in warp order (deterministic). */
constexpr int kRecCo = 16, kRecWarps = 16, kRecCE = 4, kRecU = 8, kRecNB = 8, kRecNH = 4;
constexpr int kRecXs = 8192; /* staged x, floats (32 KB); also the warps' partial sums */

/* The taps that reach column o: k = k0 + j*ks, j < cnt, each reading x at l = l0 - j*ls. (o + p - k*d) must divide by s
 * (true for one residue of k modulo ks = s / gcd(s, d), or none) and 0 <= l < L_in bounds k on both sides. */
struct ColTaps {
    int k0, ks, l0, ls, cnt;
};

__host__ __device__ inline ColTaps col_taps(const EdgeArgs &a, int o) {
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
    const int khi = a.K - 1 < u / a.d ? a.K - 1 : u / a.d; /* l >= 0 */
    c.k0 = klo <= r ? r : r + (klo - r + c.ks - 1) / c.ks * c.ks;
    if (c.k0 > khi) return c;
    c.cnt = (khi - c.k0) / c.ks + 1;
    c.l0 = (u - c.k0 * a.d) / a.s;
    c.ls = c.ks * a.d / a.s;
    return c;
}

/* Element i of a 16-byte piece as float. */
template <typename T> __device__ __forceinline__ float piece_elem(uint4 v, int i) {
    if constexpr (sizeof(T) == 4) {
        const uint32_t wd = i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
        return __uint_as_float(wd);
    } else {
        const int q = i >> 1;
        const uint32_t wd = q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w;
        const unsigned short b = (unsigned short)(i & 1 ? wd >> 16 : wd & 0xffffu);
        if constexpr (std::is_same<T, __half>::value) return __half2float(__ushort_as_half(b));
        else return __bfloat162float(__ushort_as_bfloat16(b));
    }
}

template <typename T>
__global__ void __launch_bounds__(kRecWarps * 32) fwd_edge_rec_kernel(const EdgeArgs a, const T *__restrict__ x,
                                                                      const T *__restrict__ w, const T *__restrict__ bias,
                                                                      T *__restrict__ y) {
    constexpr int VE = 16 / (int)sizeof(T); /* taps per 16-byte piece */
    __shared__ float4 sm4[kRecXs / 4];
    float *sm = reinterpret_cast<float *>(sm4);
    static_assert(kRecWarps * kRecCE * kRecNH * 32 <= kRecXs, "the partial sums reuse the staging buffer");
    static_assert(kRecNH * 32 / kRecCo == kRecNB, "lanes x samples");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int co = blockIdx.x * kRecCo + lane % kRecCo, nh = lane / kRecCo;
    const int oc = a.o_lo + (int)blockIdx.y * kRecCE, n0 = (int)blockIdx.z * kRecNB;
    ColTaps ct[kRecCE];
    int lmin = INT_MAX, lmax = -1, kmin = INT_MAX; /* x's window and the first tap of the block's columns */
#pragma unroll
    for (int e = 0; e < kRecCE; ++e) {
        ct[e] = col_taps(a, oc + e);
        if (ct[e].cnt) {
            lmax = max(lmax, ct[e].l0);
            lmin = min(lmin, ct[e].l0 - (ct[e].cnt - 1) * ct[e].ls);
            kmin = min(kmin, ct[e].k0);
        }
    }
#pragma unroll
    for (int e = 0; e < kRecCE; ++e) ct[e].l0 -= lmin; /* positions relative to the window from here on */
    float acc[kRecCE][kRecNH];
#pragma unroll
    for (int e = 0; e < kRecCE; ++e)
#pragma unroll
        for (int i = 0; i < kRecNH; ++i) acc[e][i] = 0.f;
    if (lmax >= 0) { /* block-uniform: else no tap reaches the block's columns (bias only) */
        const int W = lmax - lmin + 1, cc = kRecXs / (W * kRecNB); /* cc >= 1: the host checks W */
        const int kp = kmin / VE * VE;                             /* the piece's first tap (the host checks the rest) */
        for (int c0 = 0; c0 < a.cin; c0 += cc) {
            const int nc = min(cc, a.cin - c0), nv = nc * W * kRecNB;
            __syncthreads(); /* the last chunk's readers are done */
            for (int v0 = threadIdx.x; v0 < nv; v0 += kRecWarps * 32 * kRecU) { /* kRecU loads in flight per thread */
                float xv[kRecU];
#pragma unroll
                for (int u = 0; u < kRecU; ++u) {
                    const int v = v0 + u * kRecWarps * 32, wl = v % W, n = (v / W) % kRecNB, c = v / (W * kRecNB);
                    xv[u] = v < nv && n0 + n < a.N
                                ? Elem<T>::load(x[((int64_t)(n0 + n) * a.cin + c0 + c) * a.L_in + lmin + wl])
                                : 0.f;
                }
#pragma unroll
                for (int u = 0; u < kRecU; ++u) {
                    const int v = v0 + u * kRecWarps * 32, wl = v % W, n = (v / W) % kRecNB, c = v / (W * kRecNB);
                    if (v < nv) sm[(c * W + wl) * kRecNB + n] = xv[u];
                }
            }
            __syncthreads();
            if (co >= a.cout) continue;
            for (int cb = warp; cb < nc; cb += kRecWarps * kRecU) {
                uint4 piece[kRecU];
#pragma unroll
                for (int u = 0; u < kRecU; ++u) {
                    const int c = cb + u * kRecWarps;
                    piece[u] = c < nc ? __ldg(reinterpret_cast<const uint4 *>(w + ((int64_t)(c0 + c) * a.cout + co) * a.K + kp))
                                      : make_uint4(0u, 0u, 0u, 0u);
                }
#pragma unroll
                for (int u = 0; u < kRecU; ++u) {
                    const int c = cb + u * kRecWarps;
                    if (c >= nc) break;
                    const float *xr = sm + c * W * kRecNB + nh * kRecNH;
#pragma unroll
                    for (int e = 0; e < kRecCE; ++e)
                        for (int j = 0; j < ct[e].cnt; ++j) {
                            const float wv = piece_elem<T>(piece[u], ct[e].k0 + j * ct[e].ks - kp);
                            const float4 xq = *reinterpret_cast<const float4 *>(xr + (ct[e].l0 - j * ct[e].ls) * kRecNB);
                            acc[e][0] = fmaf(xq.x, wv, acc[e][0]);
                            acc[e][1] = fmaf(xq.y, wv, acc[e][1]);
                            acc[e][2] = fmaf(xq.z, wv, acc[e][2]);
                            acc[e][3] = fmaf(xq.w, wv, acc[e][3]);
                        }
                }
            }
        }
    }
    __syncthreads(); /* done with the staged x */
#pragma unroll
    for (int e = 0; e < kRecCE; ++e)
#pragma unroll
        for (int i = 0; i < kRecNH; ++i) sm[(warp * kRecCE * kRecNH + e * kRecNH + i) * 32 + lane] = acc[e][i];
    __syncthreads();
    /* Output q = (column e, sample i of the lane's four) x 32 lanes: the warps' sums in warp order, the bias. */
    for (int q = threadIdx.x; q < kRecCE * kRecNH * 32; q += kRecWarps * 32) {
        const int ln = q & 31, ei = q >> 5, e = ei / kRecNH, i = ei - e * kRecNH;
        const int c_out = blockIdx.x * kRecCo + ln % kRecCo, n = n0 + ln / kRecCo * kRecNH + i, o = oc + e;
        if (c_out >= a.cout || n >= a.N || o >= a.L_out) continue;
        float v = 0.f;
        for (int r = 0; r < kRecWarps; ++r) v += sm[(r * kRecCE * kRecNH + ei) * 32 + ln];
        if (bias) v += Elem<T>::load(bias[c_out]);
        y[((int64_t)n * a.cout + c_out) * a.L_out + o] = Elem<T>::store(v);
    }
}

/* Whether the record kernel takes the layer: whole 16-byte pieces per tap record, w aligned, every column group's taps
 * in one piece, x's window of a group (W positions x 8 samples) fitting the staging buffer. CONVT1D_WGMMA_RS_EDGE_REC=0:
 * never (A/B, tests). */
bool rec_fits(const EdgeArgs &a, const void *w, int es) {
    const char *v = convt1d_env("CONVT1D_WGMMA_RS_EDGE_REC");
    if ((v && v[0] == '0') || (a.K * es) % 16 != 0 || ((uintptr_t)w & 15) != 0) return false;
    const int VE = 16 / es;
    for (int oc = a.o_lo; oc < a.L_out; oc += kRecCE) {
        int kmin = INT_MAX, kmax = -1, lmin = INT_MAX, lmax = -1;
        for (int e = 0; e < kRecCE; ++e) {
            const ColTaps c = col_taps(a, oc + e);
            if (!c.cnt) continue;
            kmin = std::min(kmin, c.k0);
            kmax = std::max(kmax, c.k0 + (c.cnt - 1) * c.ks);
            lmax = std::max(lmax, c.l0);
            lmin = std::min(lmin, c.l0 - (c.cnt - 1) * c.ls);
        }
        if (kmax >= 0 && (kmin / VE != kmax / VE || (int64_t)(lmax - lmin + 1) * kRecNB > kRecXs)) return false;
    }
    return true;
}

template <typename T>
convt1d_status launch(const EdgeArgs &a, const void *x, const void *w, const void *bias, void *y, cudaStream_t stream) {
    if (rec_fits(a, w, (int)sizeof(T))) {
        const dim3 grid((unsigned)((a.cout + kRecCo - 1) / kRecCo), (unsigned)((a.L_out - a.o_lo + kRecCE - 1) / kRecCE),
                        (unsigned)((a.N + kRecNB - 1) / kRecNB));
        fwd_edge_rec_kernel<T><<<grid, kRecWarps * 32, 0, stream>>>(a, (const T *)x, (const T *)w, (const T *)bias, (T *)y);
        return convt1d_cuda_check("forward (edge columns): launch");
    }
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
