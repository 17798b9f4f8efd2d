/* Hopper grad_weight (fp16, bf16, fp32 as TF32 or split TF32): wgmma with both operands fed to shared
 * memory by TMA, for strided layers (groups == 1).
 *
 * With k*d = j*s + b (b < s), output position l*s - p + k*d = (l + j)*s + b - p, so
 *   grad_w[ci, co, k] = sum_n sum_l x[n, ci, l] * gy[n, co, (l + j)*s + b - p]
 *                     = sum_n sum_q Xs[j][n, ci, q] * Pl[n, co*s + b, q]
 * with the phase planes Pl[n, co*s + b, q] = gy[n, co, q*s + b - p] and the shifted input copies
 * Xs[j][n, ci, q] = x[n, ci, q - j] (zero outside), q < Lg = L_in + T - 1, T = (K-1)*d/s + 1 shifts.
 * Per shift j that is a plain GEMM D_j[ci, row] (M = C_in, N = s*C_out rows, reduction over (n, q)),
 * both operands K-major (q contiguous), as TF32 wgmma needs. Why copies of x rather than a shifted TMA
 * box: a box cannot start at an arbitrary element of the contiguous axis (fwd_wgmma.cu), and x is the
 * smaller operand (by s*C_out/C_in). Rows co*s + b put the s taps of one (co, j) next to each other.
 *
 * Block: 128 input channels (two consumer warpgroups of 64) x BN plane rows, one producer warp; a stage
 * is one 128-byte chunk of q (64 16-bit or 32 fp32 values) of both operands. The reduction over (n, q)
 * is cut into a fixed number of splits, each writing fp32 partials to a workspace; a second kernel sums
 * them in split order and scatters to grad_w[ci, co, k]: bitwise deterministic.
 * Batch chunks (planes scratch bounded by kScratchBudget) add into the same partials, in order. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.cuh"
#include "wgmma_common.cuh"

namespace {

constexpr int kBM = 128; /* input channels per block: two consumer warpgroups */
constexpr int kThreads = 2 * 128 + 32;
constexpr int kMaxSmem = kWgMaxSmem;
constexpr size_t kScratchBudget = (size_t)768 << 20; /* planes + shifted copies per batch chunk */

struct BwArgs {
    float *ws;       /* partials [splits][T][cin][rows_p] */
    int cin, rows;   /* GEMM M and N */
    int rows_p;      /* workspace row pitch (even: float2 stores) */
    int T;           /* shifts */
    int nb;          /* samples in this batch chunk */
    int nstride;     /* samples per copy in the scratch maps (the full chunk size) */
    int qchunks;     /* 128-byte chunks of q per sample */
    int splits;
    int stages;
    int accumulate;  /* later batch chunks add to the partials */
    int x0;          /* shift 0 read from x itself (tmx0), the copies map holding shifts 1..T-1 only */
    int xn0;         /* this batch chunk's first sample in x (tmx0) */
};

#if CONVT1D_WG_DEVICE
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
#endif

template <int BN> __host__ __device__ constexpr int bw_stage_bytes() { return (kBM + BN) * kRow; }

template <int TY, int BN>
__global__ void __launch_bounds__(kThreads, 1)
    bwd_weight_wgmma_kernel(const __grid_constant__ CUtensorMap tmx, const __grid_constant__ CUtensorMap tmg,
                            const __grid_constant__ CUtensorMap tmx0, BwArgs a) {
#if CONVT1D_WG_DEVICE
    typedef typename wg_type<TY>::T T;
    constexpr int kBK = kRow / (int)sizeof(T);
    constexpr bool X3 = TY == WG_TF32X3;
    constexpr int SB1 = bw_stage_bytes<BN>(), SB = X3 ? 2 * SB1 : SB1, AB = kBM * kRow;
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char *sm = (unsigned char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = smem_u32(sm);
    const uint32_t full0 = sbase + a.stages * SB, empty0 = full0 + a.stages * 8;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int ci0 = blockIdx.x * kBM, r0 = blockIdx.y * BN;
    const int j = blockIdx.z % a.T, sp = blockIdx.z / a.T;
    /* This split's share of the flat reduction f = n * qchunks + qc (fixed: determinism). */
    const int64_t total = (int64_t)a.nb * a.qchunks;
    const int64_t f0 = total * sp / a.splits, f1 = total * (sp + 1) / a.splits;
    const int iters = (int)(f1 - f0);

    if (tid == 0) {
        for (int s = 0; s < a.stages; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, 8);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (warp == 8) {
        if (lane == 0) {
            asm volatile("prefetch.tensormap [%0];" ::"l"(&tmx) : "memory");
            asm volatile("prefetch.tensormap [%0];" ::"l"(&tmg) : "memory");
            if (a.x0) asm volatile("prefetch.tensormap [%0];" ::"l"(&tmx0) : "memory");
            int n = (int)(f0 / a.qchunks), qc = (int)(f0 - (int64_t)n * a.qchunks);
            for (int it = 0; it < iters; ++it) {
                const int s = it % a.stages;
                if (it >= a.stages) mbar_wait(empty0 + 8 * s, ((it / a.stages) + 1) & 1);
                const uint32_t st = sbase + s * SB, bar = full0 + 8 * s;
                mbar_expect_tx(bar, SB);
                /* x copies: [2 halves][T][nb] samples; planes: [2 halves][nb]. */
                if (a.x0 && j == 0) /* x itself: positions past L_in arrive as zeros */
                    tma_load_3d(st, &tmx0, bar, qc * kBK, ci0, a.xn0 + n);
                else
                    tma_load_3d(st, &tmx, bar, qc * kBK, ci0, (j - a.x0) * a.nstride + n);
                tma_load_3d(st + AB, &tmg, bar, qc * kBK, r0, n);
                if (X3) {
                    tma_load_3d(st + SB1, &tmx, bar, qc * kBK, ci0, (a.T + j) * a.nstride + n);
                    tma_load_3d(st + SB1 + AB, &tmg, bar, qc * kBK, r0, a.nstride + n);
                }
                if (++qc == a.qchunks) {
                    qc = 0;
                    ++n;
                }
            }
        }
        return;
    }

    const int wg = warp >> 2;
    float acc[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
    for (int it = 0; it < iters; ++it) {
        const int s = it % a.stages;
        mbar_wait(full0 + 8 * s, (it / a.stages) & 1);
        const uint32_t xa = sbase + s * SB + wg * (64 * kRow), pb = sbase + s * SB + AB;
        if (X3) {
            /* Fresh accumulator per stage, added with fp32 adds: the tensor core's own accumulation
             * drifts over long reductions (fwd_wgmma.cu, run 25). */
            float tmp[BN / 2];
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) tmp[i] = 0.f;
            wg_fence();
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                wg_mma<TY, BN>::run(tmp, desc_sw128(xa + SB1 + kk * 32), desc_sw128(pb + kk * 32));
                wg_mma<TY, BN>::run(tmp, desc_sw128(xa + kk * 32), desc_sw128(pb + SB1 + kk * 32));
                wg_mma<TY, BN>::run(tmp, desc_sw128(xa + kk * 32), desc_sw128(pb + kk * 32));
            }
            wg_commit();
            wg_wait<0>();
            if (lane == 0) mbar_arrive(empty0 + 8 * s);
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) acc[i] += tmp[i];
            continue;
        }
        wg_fence();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) wg_mma<TY, BN>::run(acc, desc_sw128(xa + kk * 32), desc_sw128(pb + kk * 32));
        wg_commit();
        wg_wait<1>();
        if (it > 0 && lane == 0) mbar_arrive(empty0 + 8 * ((it - 1) % a.stages));
    }
    wg_wait<0>();

    /* acc[4i + u] (u = 0, 1): plane row 8i + 2t + u of input channel g; acc[4i + 2 + u]: channel g + 8. */
    const int g = lane >> 2, t = lane & 3;
    const int ci = ci0 + wg * 64 + (warp & 3) * 16 + g;
    float *ws = a.ws + ((int64_t)sp * a.T + j) * a.cin * a.rows_p;
#pragma unroll
    for (int i = 0; i < BN / 8; ++i) {
        const int r = r0 + 8 * i + 2 * t;
        if (r >= a.rows) continue;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int c = ci + 8 * h;
            if (c >= a.cin) continue;
            float2 *dst = reinterpret_cast<float2 *>(ws + (int64_t)c * a.rows_p + r);
            float2 v = make_float2(acc[4 * i + 2 * h], acc[4 * i + 2 * h + 1]);
            if (a.accumulate) {
                const float2 o = *dst;
                v.x += o.x;
                v.y += o.y;
            }
            *dst = v;
        }
    }
#else
    __trap(); /* not built for sm_90a: the host never launches it */
#endif
}

/* Phase planes of grad_y: pl[n, co*s + b, q] = gy[n, co, q*s + b - p] (zero outside [0, L_out)),
 * row pitch `pitch`. One block per (n, co) row and QT plane positions: the gy span is read with 16-byte
 * loads into shared memory (padded against bank conflicts), then each plane row written with 16-byte
 * stores (values past Lg land in the row's padding, which the maps never read). WG_TF32X3 writes the
 * small halves at + small_off. */
template <int TY>
__global__ void __launch_bounds__(256) bw_planes_kernel(const typename wg_type<TY>::T *gy, typename wg_type<TY>::T *pl,
                                                        int s, int p, int L_out, int pitch, int QT, int64_t small_off) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T);
    extern __shared__ float span[];
    const int64_t row = blockIdx.x; /* n * cout + co */
    const int q0 = blockIdx.y * QT;
    const T *src = gy + row * L_out;
    load_span<TY>(src, L_out, (int64_t)q0 * s - p, QT * s, ((uintptr_t)src & 15) == 0, threadIdx.x, blockDim.x,
                  [&](int i, float v) { span[i + (i >> 5)] = v; });
    __syncthreads();
    T *dst = pl + row * s * (int64_t)pitch + q0;
    const int nvec = QT / VE, qlim = pitch - q0;
    for (int e = threadIdx.x; e < s * nvec; e += blockDim.x) {
        const int b = e / nvec, qq = (e - b * nvec) * VE;
        if (qq >= qlim) continue;
        float v[VE];
#pragma unroll
        for (int i = 0; i < VE; ++i) {
            const int idx = (qq + i) * s + b;
            v[i] = span[idx + (idx >> 5)];
        }
        store_vec<TY>(dst + (int64_t)b * pitch + qq, v, small_off);
    }
}

/* The same planes where a unit (one position's s values of one channel) is 16 or 32 bytes and starts 8-byte
 * aligned (16-bit stride 8, fp32 stride 4 or 8; p*es and L_out*es multiples of 8): the block's span of grad_y
 * comes in as coalesced 8-byte words (shared memory padded by one word per 16 against bank conflicts), then
 * each thread takes VE consecutive units and turns them in registers into one 16-byte vector per plane. The
 * general kernel above runs short blocks through a float tile at about half the copy bandwidth (codec_dec_s8
 * bf16: 100 us for 207 MB, run 128). */
constexpr int kPlanesUnitsThreads = 128;

template <int TY, int U>
__global__ void __launch_bounds__(kPlanesUnitsThreads) bw_planes_units_kernel(const typename wg_type<TY>::T *gy,
                                                                              typename wg_type<TY>::T *pl, int p, int L_out,
                                                                              int pitch, int64_t small_off) {
    typedef typename wg_type<TY>::T T;
    constexpr int es = (int)sizeof(T), VE = 16 / es, S = U * VE, W = 8 / es; /* unit: S values */
    constexpr int QB = kPlanesUnitsThreads * VE;                            /* positions per block */
    constexpr int WPU = S / W, NW = QB * WPU;                               /* 8-byte words per unit, per block */
    __shared__ uint2 span[NW + NW / 16];
    const int64_t row = blockIdx.x; /* n * cout + co */
    const int q0 = blockIdx.y * QB, t = threadIdx.x;
    const T *src = gy + row * L_out;
    const int64_t e0 = (int64_t)q0 * S - p; /* a multiple of W */
    for (int w = t; w < NW; w += kPlanesUnitsThreads) {
        const int64_t e = e0 + (int64_t)w * W;
        span[w + (w >> 4)] = e >= 0 && e < L_out ? __ldg(reinterpret_cast<const uint2 *>(src + e)) : make_uint2(0, 0);
    }
    __syncthreads();
    const int qt = q0 + t * VE;
    if (qt >= pitch) return;
    union {
        uint2 w[WPU];
        T e[S];
    } u[VE];
#pragma unroll
    for (int i = 0; i < VE; ++i)
#pragma unroll
        for (int k = 0; k < WPU; ++k) {
            const int w = (t * VE + i) * WPU + k;
            u[i].w[k] = span[w + (w >> 4)];
        }
    T *dst = pl + row * S * (int64_t)pitch + qt;
#pragma unroll
    for (int b = 0; b < S; ++b) {
        float v[VE];
#pragma unroll
        for (int i = 0; i < VE; ++i) v[i] = wg_type<TY>::to_f(u[i].e[b]);
        store_vec<TY>(dst + (int64_t)b * pitch, v, small_off);
    }
}

constexpr int kShiftQ = 2048; /* positions per shift block */

/* Shifted input copies: xs[j][n, ci, q] = x[n, ci, q - j] for j < T (zero outside [0, L_in)), written
 * up to the row pitch. blockIdx.x = n * cin + ci within the chunk, `rows` of them per copy. The row
 * segment is staged once in shared memory (index padded by 1 per VE: conflict-free vector gathers). */
template <int TY>
__global__ void __launch_bounds__(256) bw_shift_kernel(const typename wg_type<TY>::T *x, typename wg_type<TY>::T *xs,
                                                       int L, int pitch, int shifts, int64_t rows, int64_t small_off) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T);
    extern __shared__ float buf[];
    const int64_t row = blockIdx.x;
    const int q0 = blockIdx.y * kShiftQ;
    const T *src = x + row * L;
    load_span<TY>(src, L, (int64_t)q0 - (shifts - 1), kShiftQ + shifts - 1, ((uintptr_t)src & 15) == 0, threadIdx.x,
                  blockDim.x, [&](int i, float v) { buf[i + i / VE] = v; });
    __syncthreads();
    const int nvec = kShiftQ / VE, qlim = pitch - q0;
    for (int e = threadIdx.x; e < shifts * nvec; e += blockDim.x) {
        const int j = e / nvec, qq = (e - j * nvec) * VE;
        if (qq >= qlim) continue;
        float v[VE];
#pragma unroll
        for (int i = 0; i < VE; ++i) {
            const int idx = qq + i - j + shifts - 1;
            v[i] = buf[idx + idx / VE];
        }
        store_vec<TY>(xs + ((int64_t)j * rows + row) * pitch + q0 + qq, v, small_off);
    }
}

/* The one shifted copy of a 16-bit layer with two shifts (T = 2: the vocoder layers, K = 2s) whose x rows are a
 * 16-byte multiple: shift 0 is x itself (tmx0), and xs[n, ci, q] = x[n, ci, q - 1] comes from one aligned 16-byte
 * load per thread and the last value of the chunk before (the neighbour's load, from L1), written with one 16-byte
 * store: both sides coalesced, no shared memory. The general kernel above wrote both copies at ~1.4 TB/s
 * (codec_dec_s8 bf16: 56 us for 78 MB, run 128). */
template <int TY>
__global__ void __launch_bounds__(256) bw_shift1_kernel(const typename wg_type<TY>::T *x, typename wg_type<TY>::T *xs,
                                                        int L, int pitch) {
    typedef typename wg_type<TY>::T T;
    static_assert(sizeof(T) == 2, "16-bit only");
    const int64_t row = blockIdx.x;
    const int q = (blockIdx.y * 256 + threadIdx.x) * 8; /* 8 values per 16 bytes */
    if (q >= pitch) return;
    const unsigned short *src = reinterpret_cast<const unsigned short *>(x) + row * L;
    const uint4 cur = q < L ? __ldg(reinterpret_cast<const uint4 *>(src + q)) : make_uint4(0, 0, 0, 0);
    const uint32_t prev = q > 0 && q - 1 < L ? (uint32_t)src[q - 1] : 0u;
    uint4 o; /* values q-1 .. q+6: each word takes the high half of the word before */
    o.x = (cur.x << 16) | prev;
    o.y = __funnelshift_l(cur.x, cur.y, 16);
    o.z = __funnelshift_l(cur.y, cur.z, 16);
    o.w = __funnelshift_l(cur.z, cur.w, 16);
    *reinterpret_cast<uint4 *>(xs + row * (int64_t)pitch + q) = o;
}

/* grad_w[ci, co, k] = sum over splits (in order) of partial[sp][j][ci][co*s + b], k*d = j*s + b.
 * Threads along co*K + k (contiguous stores, 32-bit index arithmetic), kReduceCi input channels per
 * thread with all their loads in flight: one channel per short-lived block left codec_dec_s8's reduce
 * (188 MB) at ~40% of the copy bandwidth on an H100 (146-154 us). */
constexpr int kReduceCi = 8;

template <int TY>
__global__ void __launch_bounds__(256) bw_reduce_kernel(const float *ws, typename wg_type<TY>::T *gw, int cin, int cout,
                                                        int K, int s, int d, int rows_p, int Tn, int splits) {
    const int idx = blockIdx.x * 256 + threadIdx.x;
    if (idx >= cout * K) return;
    const int co = idx / K, k = idx - co * K;
    const int kd = k * d, j = kd / s, b = kd - j * s;
    const int64_t slab = (int64_t)Tn * cin * rows_p;
    const int ci0 = blockIdx.y * kReduceCi;
    const float *src = ws + ((int64_t)j * cin + ci0) * rows_p + (int64_t)co * s + b;
    float v[kReduceCi];
#pragma unroll
    for (int u = 0; u < kReduceCi; ++u) v[u] = 0.f;
    for (int sp = 0; sp < splits; ++sp) {
#pragma unroll
        for (int u = 0; u < kReduceCi; ++u)
            if (ci0 + u < cin) v[u] += src[sp * slab + (int64_t)u * rows_p];
    }
#pragma unroll
    for (int u = 0; u < kReduceCi; ++u)
        if (ci0 + u < cin) gw[(int64_t)(ci0 + u) * cout * K + idx] = wg_type<TY>::from_f(v[u]);
}

/* Shift 0 from x itself (BwArgs::x0): 16-bit with two shifts and x rows a 16-byte multiple (TF32 keeps its
 * copies: they are rounded to TF32 on the way, x is not). CONVT1D_WGMMA_BW_X0=0 never (A/B, tests). */
bool shift0_from_x(int es, int Tn, int L, const void *x) {
    const char *v = convt1d_env("CONVT1D_WGMMA_BW_X0");
    return !(v && v[0] == '0') && es == 2 && Tn == 2 && ((int64_t)L * es) % 16 == 0 && ((uintptr_t)x & 15) == 0;
}

template <int TY, int BN>
cudaError_t launch_gemm(const CUtensorMap &tmx, const CUtensorMap &tmg, const CUtensorMap &tmx0, const BwArgs &a,
                        dim3 grid, int smem, cudaStream_t stream) {
    return launch_big_smem<bwd_weight_wgmma_kernel<TY, BN>>(grid, kThreads, smem, stream, tmx, tmg, tmx0, a);
}

template <int TY, int BN>
convt1d_status run(const convt1d_problem &pr, const void *gy, const void *x, void *gw, cudaStream_t stream) {
    typedef typename wg_type<TY>::T T;
    const convt1d_params &P = pr.p;
    const int es = (int)sizeof(T), kBK = kRow / es;
    const int cin = (int)P.in_channels, cout = (int)P.out_channels, N = (int)P.batch, L = (int)P.in_length;
    const int s = (int)P.stride, p = (int)P.padding, K = (int)P.kernel_size, d = (int)P.dilation;
    const int L_out = (int)pr.out_length;
    const int Tn = (int)(((int64_t)(K - 1) * d) / s) + 1;
    const int Lg = L + Tn - 1;
    const int pitch = (Lg + kBK - 1) / kBK * kBK; /* 128-byte rows */
    const int qchunks = pitch / kBK;
    const int rows = s * cout;
    const int halves = TY == WG_TF32X3 ? 2 : 1;
    const int x0 = shift0_from_x(es, Tn, L, x) ? 1 : 0;
    const int Tc = Tn - x0; /* shifted copies made */

    /* Batch chunk: planes [nb][rows][pitch] + copies [Tc][nb][cin][pitch], both halves.
     * CONVT1D_WGMMA_BW_SCRATCH (bytes) overrides the budget: tests force several chunks with it. */
    size_t budget = kScratchBudget;
    const char *bv = convt1d_env("CONVT1D_WGMMA_BW_SCRATCH");
    if (bv && bv[0] && strtoull(bv, nullptr, 10) > 0) budget = (size_t)strtoull(bv, nullptr, 10);
    const size_t per_n = ((size_t)rows + (size_t)Tc * cin) * pitch * es * halves;
    /* Equal chunks: a short last one would run a sliver of the grid (run 30: 15 + 1 samples). */
    const int64_t fit = per_n * N <= budget ? N : (budget / per_n > 0 ? (int64_t)(budget / per_n) : 1);
    const int64_t nchunks = (N + fit - 1) / fit;
    const int nb = (int)((N + nchunks - 1) / nchunks);
    const int64_t ci_tiles = (cin + kBM - 1) / kBM, r_tiles = (rows + BN - 1) / BN;
    if (r_tiles > 65535 || ci_tiles > INT_MAX) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int sms = convt1d_sm_count() > 0 ? convt1d_sm_count() : 132;
    const int splits = pick_splits(ci_tiles * r_tiles * Tn, (int64_t)nb * qchunks, sms, 64, 32, INT64_MAX); /* 1..64 splits of >= 32 stages */
    if ((int64_t)Tn * splits > 65535) return CONVT1D_ERROR_NOT_SUPPORTED;

    BwArgs a;
    a.cin = cin;
    a.rows = rows;
    a.rows_p = (rows + 1) & ~1;
    a.T = Tn;
    a.qchunks = qchunks;
    a.splits = splits;
    a.nb = nb;
    a.nstride = nb;
    a.accumulate = 0;
    a.x0 = x0;
    a.xn0 = 0;
    const int SB = bw_stage_bytes<BN>() * halves;
    a.stages = (kMaxSmem - 1024 - 128) / SB;
    if (a.stages > 8) a.stages = 8;
    if (a.stages < 2) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int smem = a.stages * SB + a.stages * 16 + 1024;

    const size_t pl_elems = (size_t)nb * rows * pitch, xs_elems = (size_t)Tc * nb * cin * pitch;
    const size_t pl_bytes = (pl_elems * es * halves + 1023) / 1024 * 1024;
    const size_t xs_bytes = (xs_elems * es * halves + 1023) / 1024 * 1024;
    const size_t ws_bytes = (size_t)splits * Tn * cin * a.rows_p * sizeof(float);
    void *scratch = nullptr;
    cudaError_t e = cudaMallocAsync(&scratch, pl_bytes + xs_bytes + ws_bytes, stream);
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma backward-weight: scratch: %s", cudaGetErrorString(e));
    unsigned char *base = static_cast<unsigned char *>(scratch);
    T *pl = reinterpret_cast<T *>(base);
    T *xs = reinterpret_cast<T *>(base + pl_bytes);
    a.ws = reinterpret_cast<float *>(base + pl_bytes + xs_bytes);

    CUtensorMap tmx, tmg, tmx0;
    memset(&tmx0, 0, sizeof(tmx0)); /* never read without x0 */
    if (!make_map(&tmx, xs, es, (uint64_t)Lg, (uint64_t)cin, (uint64_t)Tc * nb * halves, kBK, kBM, 1, pitch) ||
        !make_map(&tmg, pl, es, (uint64_t)Lg, (uint64_t)rows, (uint64_t)nb * halves, kBK, BN, 1, pitch) ||
        (x0 && !make_map(&tmx0, x, es, (uint64_t)L, (uint64_t)cin, (uint64_t)N, kBK, kBM, 1))) {
        cudaFreeAsync(scratch, stream);
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    /* Planes tile: QT positions (a multiple of 32) so that QT*s values fit 16 KB of shared memory. */
    int QT = 4096 / s / 32 * 32;
    if (QT > 256) QT = 256;
    if (QT < 32) QT = 32;
    const int64_t q_tiles = (Lg + QT - 1) / QT, xq_tiles = (Lg + kShiftQ - 1) / kShiftQ;
    if (q_tiles > 65535 || xq_tiles > 65535) {
        cudaFreeAsync(scratch, stream);
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    const int span_bytes = (QT * s + QT * s / 32 + 1) * (int)sizeof(float);
    const int shift_len = kShiftQ + Tn - 1;
    const int shift_bytes = (shift_len + shift_len / (16 / es) + 1) * (int)sizeof(float);
    const dim3 grid((unsigned)ci_tiles, (unsigned)r_tiles, (unsigned)(Tn * splits));
    for (int n0 = 0; n0 < N && e == cudaSuccess; n0 += nb) {
        const int nc = N - n0 < nb ? N - n0 : nb;
        const T *gyc = static_cast<const T *>(gy) + (int64_t)n0 * cout * L_out;
        const int su = plane_unit_bytes(s, es, p, L_out, gyc); /* bytes per unit, 0: the general kernel */
        if (su) {
            const int QB = kPlanesUnitsThreads * (16 / es);
            const dim3 g((unsigned)((int64_t)nc * cout), (unsigned)((pitch + QB - 1) / QB));
            if (su == 16)
                bw_planes_units_kernel<TY, 1><<<g, kPlanesUnitsThreads, 0, stream>>>(gyc, pl, p, L_out, pitch, (int64_t)pl_elems);
            else
                bw_planes_units_kernel<TY, 2><<<g, kPlanesUnitsThreads, 0, stream>>>(gyc, pl, p, L_out, pitch, (int64_t)pl_elems);
        } else {
            bw_planes_kernel<TY><<<dim3((unsigned)((int64_t)nc * cout), (unsigned)q_tiles), 256, span_bytes, stream>>>(
                gyc, pl, s, p, L_out, pitch, QT, (int64_t)pl_elems);
        }
        if (x0) {
            if constexpr (sizeof(T) == 2)
                bw_shift1_kernel<TY><<<dim3((unsigned)((int64_t)nc * cin), (unsigned)((pitch + 2047) / 2048)), 256, 0, stream>>>(
                    static_cast<const T *>(x) + (int64_t)n0 * cin * L, xs, L, pitch);
        } else {
            bw_shift_kernel<TY><<<dim3((unsigned)((int64_t)nc * cin), (unsigned)xq_tiles), 256, shift_bytes, stream>>>(
                static_cast<const T *>(x) + (int64_t)n0 * cin * L, xs, L, pitch, Tn, (int64_t)nb * cin, (int64_t)xs_elems);
        }
        e = cudaGetLastError();
        if (e != cudaSuccess) break;
        BwArgs c = a;
        c.accumulate = n0 > 0;
        c.nb = nc; /* a short last chunk reduces over fewer samples; the maps keep stride nb */
        c.xn0 = n0;
        e = launch_gemm<TY, BN>(tmx, tmg, tmx0, c, grid, smem, stream);
    }
    if (e == cudaSuccess) {
        const dim3 rgrid((unsigned)(((int64_t)cout * K + 255) / 256), (unsigned)((cin + kReduceCi - 1) / kReduceCi));
        bw_reduce_kernel<TY><<<rgrid, 256, 0, stream>>>(a.ws, static_cast<T *>(gw), cin, cout, K, s, d, a.rows_p, Tn,
                                                       splits);
        e = cudaGetLastError();
    }
    const cudaError_t f = cudaFreeAsync(scratch, stream);
    if (e == cudaSuccess) e = f;
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma backward-weight launch failed: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

}  // namespace

/* CONVT1D_WGMMA_BW (read at every call, for tests and A/B timing): unset, the heuristic; 0 off; 1 every
 * problem the kernel takes. */
convt1d_status convt1d_bwd_weight_wgmma(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                        cudaStream_t stream) {
    const char *ev = convt1d_env("CONVT1D_WGMMA_BW");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    const int ty = wg_kind(pr.dtype, pr.math);
    if (ty < 0) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (env == 0 || P.groups != 1 || P.batch == 0 || P.stride < 2 || P.stride > 64) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.in_length >= INT_MAX / 2 || pr.out_length >= INT_MAX / 2 || P.in_channels > 65535 || P.out_channels > 65535 ||
        P.kernel_size > 4096 || P.dilation > 65535 || P.padding > INT_MAX / 4 || P.batch > INT_MAX / 64)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (convt1d_sm_major() != 9 || !sm90a_built<bwd_weight_wgmma_kernel<WG_BF16, 256>>()) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t Tn = ((P.kernel_size - 1) * P.dilation) / P.stride + 1;
    if (Tn > 64) return CONVT1D_ERROR_NOT_SUPPORTED;
    /* Where it pays: the planes and the shifted copies are two extra passes, repaid when the GEMM is
     * long enough per element (as the forward's C_in * T >= 512). */
    if (env < 0 && (P.in_channels < 128 || P.in_channels * Tn < 512)) return CONVT1D_ERROR_NOT_SUPPORTED;
    const bool wide = P.stride * P.out_channels > 128;
    switch (ty) {
    case WG_F16: return wide ? run<WG_F16, 256>(pr, grad_y, x, grad_w, stream) : run<WG_F16, 128>(pr, grad_y, x, grad_w, stream);
    case WG_BF16: return wide ? run<WG_BF16, 256>(pr, grad_y, x, grad_w, stream) : run<WG_BF16, 128>(pr, grad_y, x, grad_w, stream);
    case WG_TF32: return wide ? run<WG_TF32, 256>(pr, grad_y, x, grad_w, stream) : run<WG_TF32, 128>(pr, grad_y, x, grad_w, stream);
    default: return run<WG_TF32X3, 128>(pr, grad_y, x, grad_w, stream);
    }
}
