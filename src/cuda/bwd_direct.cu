/* Direct (CUDA-core) backward kernels, every dtype and parameter combination, all deterministic:
 * no floating-point atomics, every sum is taken in an order fixed by the problem alone.
 *
 *   grad_x[n, ci, i]  = sum_{co < Cout_g, k} w[ci, co, k] * grad_y[n, g*Cout_g + co, i*s + k*d - p]
 *   grad_w[ci, co, k] = sum_{n, i} x[n, ci, i] * grad_y[n, g*Cout_g + co, i*s + k*d - p]
 *   grad_b[c]         = sum_{n, o} grad_y[n, c, o]
 *
 * grad_w is a split reduction: each block sums a fixed range of (n, i) chunks into a partial tile in
 * the workspace (fp32, or f64 for f64 data), and a second kernel adds the partials in split order and
 * casts. The number of splits depends only on the problem, so results are bitwise reproducible. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdlib.h>
#include <string.h>

#include "direct_common.cuh"
#include "kernels.cuh"

namespace {

using namespace convt1d_direct;

const int64_t kLim32 = (int64_t(1) << 31) - 1;

/* ============================================================== grad_x */
/* A strided, dilated correlation of grad_y with w. Each thread keeps CIT input channels x P
 * positions (32 apart, lanes consecutive) and reuses each grad_y value CIT times; the block's
 * weights are staged in shared memory as [co][k][ci]. */
constexpr int kBxThreads = 128;
constexpr int kBxP = 4;
constexpr int kBxSmemBytes = 12288;

struct BwiArgs {
    int64_t N, Cin, Cout, Lin, Lout, K, s, p, d, G, cin_g, cout_g;
    int64_t itiles, citiles, total;
    int co_chunk, tap_chunk, wc;
};

template <typename T, typename I, int CIT>
__global__ void __launch_bounds__(kBxThreads)
bwd_input_kernel(const BwiArgs a, const T *__restrict__ gy, const T *__restrict__ w, T *__restrict__ gx) {
    using E = Elem<T>;
    using Acc = typename E::Acc;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    Acc *sw = reinterpret_cast<Acc *>(smem_raw);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int WC = a.wc, wc = warp % WC, wq = warp / WC, WQ = 4 / WC;
    const int CIB = CIT * WC;
    const int cib_shift = __ffs(CIB) - 1;
    const I IB = (I)(32 * kBxP * WQ);
    const I Lin = (I)a.Lin, Lout = (I)a.Lout, Cin = (I)a.Cin, Cout = (I)a.Cout, K = (I)a.K;
    const I cin_g = (I)a.cin_g, cout_g = (I)a.cout_g, s = (I)a.s, d = (I)a.d, p = (I)a.p;
    const int co_chunk = a.co_chunk, tap_chunk = a.tap_chunk;

    for (int64_t tile = blockIdx.x; tile < a.total; tile += gridDim.x) {
        I t = (I)tile;
        const I cit = t % (I)a.citiles; t /= (I)a.citiles;
        const I it = t % (I)a.itiles; t /= (I)a.itiles;
        const I g = t % (I)a.G;
        const I n = t / (I)a.G;

        const I i0 = it * IB + (I)(wq * 32 * kBxP + lane);
        I os[kBxP]; /* i*s - p: grad_y position of tap 0 */
#pragma unroll
        for (int j = 0; j < kBxP; ++j) os[j] = (i0 + (I)(32 * j)) * s - p;

        Acc acc[CIT][kBxP];
#pragma unroll
        for (int c = 0; c < CIT; ++c)
#pragma unroll
            for (int j = 0; j < kBxP; ++j) acc[c][j] = Acc(0);

        const I ci_tile0 = cit * (I)CIB;
        for (I co0 = 0; co0 < cout_g; co0 += co_chunk) {
            const int nco = (int)min((I)co_chunk, cout_g - co0);
            for (I t0 = 0; t0 < K; t0 += tap_chunk) {
                const int nt = (int)min((I)tap_chunk, K - t0);
                __syncthreads();
                {
                    /* Stage w[g*cin_g + ci_tile0 + ci_l, co0 + co_l, t0 + t_l] at [co_l][t_l][ci_l]. */
                    const int ci_l = tid & (CIB - 1);
                    const int step = kBxThreads >> cib_shift;
                    const int pr = tid >> cib_shift;
                    int co_l = pr / nt, t_l = pr - co_l * nt;
                    const I ci = ci_tile0 + ci_l;
                    const bool ci_ok = ci < cin_g;
                    for (; co_l < nco;) {
                        Acc v = Acc(0);
                        if (ci_ok) v = E::load(w[((g * cin_g + ci) * cout_g + co0 + co_l) * K + t0 + t_l]);
                        sw[(co_l * tap_chunk + t_l) * CIB + ci_l] = v;
                        t_l += step;
                        if (t_l >= nt) { co_l += t_l / nt; t_l %= nt; }
                    }
                }
                __syncthreads();
                for (int co_l = 0; co_l < nco; ++co_l) {
                    const T *gyrow = gy + (n * Cout + g * cout_g + co0 + co_l) * Lout;
                    const Acc *swc = sw + co_l * tap_chunk * CIB + wc * CIT;
                    for (int t_l = 0; t_l < nt; ++t_l) {
                        const I off = (t0 + t_l) * d;
                        Acc gv[kBxP];
#pragma unroll
                        for (int j = 0; j < kBxP; ++j) {
                            const I o = os[j] + off;
                            gv[j] = (o >= 0 && o < Lout) ? E::load(gyrow[o]) : Acc(0);
                        }
                        Acc wv[CIT];
                        lds_vec(swc + t_l * CIB, wv);
#pragma unroll
                        for (int c = 0; c < CIT; ++c)
#pragma unroll
                            for (int j = 0; j < kBxP; ++j) acc[c][j] = fma(wv[c], gv[j], acc[c][j]);
                    }
                }
            }
        }

#pragma unroll
        for (int c = 0; c < CIT; ++c) {
            const I ci = ci_tile0 + (I)(wc * CIT + c);
            if (ci >= cin_g) continue;
            T *gxrow = gx + (n * Cin + g * cin_g + ci) * Lin;
#pragma unroll
            for (int j = 0; j < kBxP; ++j) {
                const I i = i0 + (I)(32 * j);
                if (i < Lin) gxrow[i] = E::store(acc[c][j]);
            }
        }
    }
}

template <typename T, typename I, int CIT>
convt1d_status launch_bx(const BwiArgs &a, size_t smem, const void *gy, const void *w, void *gx,
                         cudaStream_t stream) {
    const int64_t grid = a.total < (int64_t(1) << 30) ? a.total : (int64_t(1) << 30);
    bwd_input_kernel<T, I, CIT><<<(unsigned)grid, kBxThreads, smem, stream>>>(
        a, static_cast<const T *>(gy), static_cast<const T *>(w), static_cast<T *>(gx));
    return convt1d_cuda_check("backward_input (direct kernel) launch");
}

template <typename T, typename I>
convt1d_status dispatch_bx(int cit, const BwiArgs &a, size_t smem, const void *gy, const void *w, void *gx,
                           cudaStream_t stream) {
    switch (cit) {
    case 1: return launch_bx<T, I, 1>(a, smem, gy, w, gx, stream);
    case 2: return launch_bx<T, I, 2>(a, smem, gy, w, gx, stream);
    case 4: return launch_bx<T, I, 4>(a, smem, gy, w, gx, stream);
    case 8: return launch_bx<T, I, 8>(a, smem, gy, w, gx, stream);
    default:
        if constexpr (sizeof(T) < 8) return launch_bx<T, I, 16>(a, smem, gy, w, gx, stream);
        return convt1d_fail(CONVT1D_ERROR_INTERNAL, "backward_input: no direct kernel for %d channels per thread", cit);
    }
}

template <typename T>
convt1d_status dispatch_bx_index(bool fits32, int cit, const BwiArgs &a, size_t smem, const void *gy,
                                 const void *w, void *gx, cudaStream_t stream) {
    return fits32 ? dispatch_bx<T, int32_t>(cit, a, smem, gy, w, gx, stream)
                  : dispatch_bx<T, int64_t>(cit, a, smem, gy, w, gx, stream);
}

/* ============================================================== grad_w */
/* Shape of the split reduction; a pure function of the problem (so is the workspace size). */
struct BwwPlan {
    bool thin;        /* thin kernel (one ci row, NC columns, threads along positions) vs 64x64 GEMM tile */
    int nc;           /* thin: columns per block (4, 8 or 16) */
    int width;        /* positions per chunk: 256 (thin) or 32/16 (GEMM, f32/f64 partials) */
    int64_t cols;     /* Cout_g * K: columns (co, k) of one grad_w row */
    int64_t numel_w;  /* C_in * cols */
    int64_t rtiles, ctiles; /* GEMM tiles per group (rows, columns); thin: ctiles = column chunks */
    int64_t tiles;    /* blocks per split */
    int64_t cpr, nchunks, splits;
    size_t bytes;     /* workspace */
};

constexpr int kGemmThreads = 256;
constexpr int kGemmTile = 64;
constexpr int kThinThreads = 256;

BwwPlan plan_bww(const convt1d_problem &pr) {
    const convt1d_params &p = pr.p;
    const size_t acc = pr.dtype == CONVT1D_F64 ? 8 : 4;
    BwwPlan pl = {};
    pl.cols = pr.cout_g * p.kernel_size;
    pl.numel_w = p.in_channels * pl.cols;
    pl.thin = !(pr.cin_g >= 16 && pl.cols >= 16);
    int64_t min_chunks_per_split;
    if (pl.thin) {
        pl.nc = pl.cols <= 4 ? 4 : pl.cols <= 8 ? 8 : 16;
        pl.width = kThinThreads;
        pl.rtiles = 1;
        pl.ctiles = ceil_div(pl.cols, pl.nc);
        pl.tiles = p.in_channels * pl.ctiles;
        min_chunks_per_split = 4;
    } else {
        pl.nc = 0;
        pl.width = acc == 8 ? 16 : 32;
        pl.rtiles = ceil_div(pr.cin_g, kGemmTile);
        pl.ctiles = ceil_div(pl.cols, kGemmTile);
        pl.tiles = p.groups * pl.rtiles * pl.ctiles;
        min_chunks_per_split = 8;
    }
    pl.cpr = ceil_div(p.in_length, pl.width);
    pl.nchunks = p.batch * pl.cpr;
    /* About 1024 blocks in all (several waves on any current GPU), each with enough chunks to
     * amortize its partial tile, and at most 256 MiB of partials. */
    int64_t splits = ceil_div(1024, pl.tiles);
    const int64_t by_work = ceil_div(pl.nchunks, min_chunks_per_split);
    if (splits > by_work) splits = by_work;
    const int64_t cap_bytes = int64_t(256) << 20;
    const int64_t by_mem = pl.numel_w > cap_bytes / (int64_t)acc ? 1 : cap_bytes / (pl.numel_w * (int64_t)acc);
    if (splits > by_mem) splits = by_mem;
    if (splits < 1) splits = 1;
    pl.splits = p.batch == 0 ? 0 : splits;
    pl.bytes = (size_t)pl.splits * (size_t)pl.numel_w * acc;
    return pl;
}

struct BwwArgs {
    int64_t N, Cin, Cout, Lin, Lout, K, s, p, d, G, cin_g, cout_g;
    int64_t cols, numel_w, rtiles, ctiles, tiles, cpr, nchunks, splits;
};

/* Partial GEMM: rows ci (64 per tile), columns (co, k) (64 per tile), reduction over (n, i).
 * Shared tiles are [row][position] (padded), so global loads along positions are coalesced and the
 * inner loop reads 128-bit vectors; a thread owns rows ty + 16a and columns tx + 16b. */
template <typename T, typename I>
__global__ void __launch_bounds__(kGemmThreads)
bww_gemm_kernel(const BwwArgs a, const T *__restrict__ gy, const T *__restrict__ x,
                typename Elem<T>::Acc *__restrict__ ws) {
    using E = Elem<T>;
    using Acc = typename E::Acc;
    constexpr int V = 16 / sizeof(Acc);          /* values per 128-bit load */
    constexpr int RC = sizeof(Acc) == 4 ? 32 : 16; /* positions per chunk */
    constexpr int PITCH = RC + V;                /* keeps 16-byte alignment, spreads banks */
    constexpr int ROWS_PER_PASS = kGemmThreads / RC;
    constexpr int LOADS = kGemmTile / ROWS_PER_PASS;
    __shared__ __align__(16) Acc As[kGemmTile * PITCH];
    __shared__ __align__(16) Acc Bs[kGemmTile * PITCH];
    __shared__ I s_gch[kGemmTile], s_kdp[kGemmTile];

    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const int rr = tid % RC, row0 = tid / RC;
    const I Lin = (I)a.Lin, Lout = (I)a.Lout, Cin = (I)a.Cin, Cout = (I)a.Cout, s = (I)a.s;
    const int64_t total = a.tiles * a.splits;

    for (int64_t tile = blockIdx.x; tile < total; tile += gridDim.x) {
        int64_t t = tile;
        const int64_t ct = t % a.ctiles; t /= a.ctiles;
        const int64_t rt = t % a.rtiles; t /= a.rtiles;
        const int64_t g = t % a.G;
        const int64_t sp = t / a.G;
        const int64_t cbeg = sp * a.nchunks / a.splits, cend = (sp + 1) * a.nchunks / a.splits;

        const int64_t r0 = rt * kGemmTile, c0 = ct * kGemmTile;
        const int nrows = (int)min((int64_t)kGemmTile, a.cin_g - r0);
        const int ncols = (int)min((int64_t)kGemmTile, a.cols - c0);
        const I xch0 = (I)(g * a.cin_g + r0);
        /* Column table (grad_y channel, k*d - p) of this tile; shared, so no divisions in the loop. */
        __syncthreads(); /* the previous tile is done with the table */
        if (tid < kGemmTile) {
            const int64_t c = c0 + tid;
            const int64_t co = tid < ncols ? c / a.K : 0, k = tid < ncols ? c - co * a.K : 0;
            s_gch[tid] = (I)(g * a.cout_g + co);
            s_kdp[tid] = (I)(k * a.d - a.p);
        }
        __syncthreads();

        Acc acc[4][4];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) acc[i][j] = Acc(0);

        int64_t n64 = cbeg / a.cpr;
        int64_t ic = cbeg - n64 * a.cpr;
        for (int64_t c = cbeg; c < cend; ++c) {
            const I n = (I)n64;
            const I i = (I)(ic * RC) + (I)rr;
            const bool iok = i < Lin;
            const I is = i * s;
#pragma unroll
            for (int u = 0; u < LOADS; ++u) {
                const int row = row0 + u * ROWS_PER_PASS;
                Acc xv = Acc(0), gv = Acc(0);
                if (iok && row < nrows) xv = E::load(x[(n * Cin + xch0 + row) * Lin + i]);
                const I o = is + s_kdp[row];
                if (iok && row < ncols && o >= 0 && o < Lout) gv = E::load(gy[(n * Cout + s_gch[row]) * Lout + o]);
                As[row * PITCH + rr] = xv;
                Bs[row * PITCH + rr] = gv;
            }
            __syncthreads();
#pragma unroll
            for (int q = 0; q < RC; q += V) {
                Acc av[4][V], bv[4][V];
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    lds_vec(As + (ty + 16 * u) * PITCH + q, av[u]);
                    lds_vec(Bs + (tx + 16 * u) * PITCH + q, bv[u]);
                }
#pragma unroll
                for (int v = 0; v < V; ++v)
#pragma unroll
                    for (int ia = 0; ia < 4; ++ia)
#pragma unroll
                        for (int ib = 0; ib < 4; ++ib) acc[ia][ib] = fma(av[ia][v], bv[ib][v], acc[ia][ib]);
            }
            __syncthreads();
            if (++ic == a.cpr) { ic = 0; ++n64; }
        }

        Acc *wsp = ws + sp * a.numel_w + (g * a.cin_g + r0) * a.cols + c0;
#pragma unroll
        for (int ia = 0; ia < 4; ++ia) {
            const int r = ty + 16 * ia;
            if (r >= nrows) continue;
#pragma unroll
            for (int ib = 0; ib < 4; ++ib) {
                const int c = tx + 16 * ib;
                if (c < ncols) wsp[r * a.cols + c] = acc[ia][ib];
            }
        }
    }
}

/* Thin partials: one ci row and NC columns per block, threads along positions, then a fixed-order
 * tree reduction across the block. For depthwise and other narrow groups. */
template <typename T, typename I, int NC>
__global__ void __launch_bounds__(kThinThreads)
bww_thin_kernel(const BwwArgs a, const T *__restrict__ gy, const T *__restrict__ x,
                typename Elem<T>::Acc *__restrict__ ws) {
    using E = Elem<T>;
    using Acc = typename E::Acc;
    __shared__ Acc red[NC * kThinThreads];
    __shared__ I s_gch[NC], s_kdp[NC];
    __shared__ bool s_ok[NC];

    const int tid = threadIdx.x;
    const I Lin = (I)a.Lin, Lout = (I)a.Lout, Cin = (I)a.Cin, Cout = (I)a.Cout, s = (I)a.s;
    const int64_t total = a.tiles * a.splits;

    for (int64_t tile = blockIdx.x; tile < total; tile += gridDim.x) {
        int64_t t = tile;
        const int64_t cc = t % a.ctiles; t /= a.ctiles;
        const int64_t ci = t % a.Cin;
        const int64_t sp = t / a.Cin;
        const int64_t g = ci / a.cin_g;
        const int64_t cbeg = sp * a.nchunks / a.splits, cend = (sp + 1) * a.nchunks / a.splits;

        __syncthreads(); /* the previous tile is done with the column table */
        if (tid < NC) {
            const int64_t col = cc * NC + tid;
            const bool ok = col < a.cols;
            const int64_t co = ok ? col / a.K : 0, k = ok ? col - co * a.K : 0;
            s_gch[tid] = (I)(g * a.cout_g + co);
            s_kdp[tid] = (I)(k * a.d - a.p);
            s_ok[tid] = ok;
        }
        __syncthreads();
        Acc acc[NC];
#pragma unroll
        for (int c = 0; c < NC; ++c) acc[c] = Acc(0);

        int64_t n64 = cbeg / a.cpr;
        int64_t ic = cbeg - n64 * a.cpr;
        for (int64_t ch = cbeg; ch < cend; ++ch) {
            const I n = (I)n64;
            const I i = (I)(ic * kThinThreads) + (I)tid;
            if (i < Lin) {
                const Acc xv = E::load(x[(n * Cin + (I)ci) * Lin + i]);
                const I is = i * s;
#pragma unroll
                for (int c = 0; c < NC; ++c) {
                    const I o = is + s_kdp[c];
                    if (s_ok[c] && o >= 0 && o < Lout)
                        acc[c] = fma(xv, E::load(gy[(n * Cout + s_gch[c]) * Lout + o]), acc[c]);
                }
            }
            if (++ic == a.cpr) { ic = 0; ++n64; }
        }

#pragma unroll
        for (int c = 0; c < NC; ++c) red[c * kThinThreads + tid] = acc[c];
        __syncthreads();
        for (int st = kThinThreads / 2; st > 0; st >>= 1) {
            if (tid < st) {
#pragma unroll
                for (int c = 0; c < NC; ++c) red[c * kThinThreads + tid] += red[c * kThinThreads + tid + st];
            }
            __syncthreads();
        }
        if (tid < NC && s_ok[tid]) ws[sp * a.numel_w + ci * a.cols + cc * NC + tid] = red[tid * kThinThreads];
    }
}

/* grad_w[e] = sum over splits, in split order, of the partials; cast to the data type. */
template <typename T>
__global__ void __launch_bounds__(256)
bww_reduce_kernel(const typename Elem<T>::Acc *__restrict__ ws, int64_t splits, int64_t numel,
                  T *__restrict__ gw) {
    using Acc = typename Elem<T>::Acc;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < numel;
         e += (int64_t)gridDim.x * blockDim.x) {
        Acc sum = Acc(0);
        for (int64_t sp = 0; sp < splits; ++sp) sum += ws[sp * numel + e];
        gw[e] = Elem<T>::store(sum);
    }
}

template <typename T, typename I>
convt1d_status launch_bww(const BwwPlan &pl, const BwwArgs &a, const void *gy, const void *x, void *gw,
                          void *workspace, cudaStream_t stream) {
    using Acc = typename Elem<T>::Acc;
    Acc *ws = static_cast<Acc *>(workspace);
    const int64_t blocks = a.tiles * a.splits;
    const unsigned grid = (unsigned)(blocks < (int64_t(1) << 30) ? blocks : (int64_t(1) << 30));
    const T *gyp = static_cast<const T *>(gy), *xp = static_cast<const T *>(x);
    if (!pl.thin) {
        bww_gemm_kernel<T, I><<<grid, kGemmThreads, 0, stream>>>(a, gyp, xp, ws);
    } else if (pl.nc == 4) {
        bww_thin_kernel<T, I, 4><<<grid, kThinThreads, 0, stream>>>(a, gyp, xp, ws);
    } else if (pl.nc == 8) {
        bww_thin_kernel<T, I, 8><<<grid, kThinThreads, 0, stream>>>(a, gyp, xp, ws);
    } else {
        bww_thin_kernel<T, I, 16><<<grid, kThinThreads, 0, stream>>>(a, gyp, xp, ws);
    }
    convt1d_status st = convt1d_cuda_check("backward_weight (direct partial kernel) launch");
    if (st != CONVT1D_SUCCESS) return st;
    const int64_t rblocks = ceil_div(a.numel_w, 256);
    const unsigned rgrid = (unsigned)(rblocks < (int64_t(1) << 30) ? rblocks : (int64_t(1) << 30));
    bww_reduce_kernel<T><<<rgrid, 256, 0, stream>>>(ws, a.splits, a.numel_w, static_cast<T *>(gw));
    return convt1d_cuda_check("backward_weight (direct reduce kernel) launch");
}

template <typename T>
convt1d_status launch_bww_index(bool fits32, const BwwPlan &pl, const BwwArgs &a, const void *gy,
                                const void *x, void *gw, void *ws, cudaStream_t stream) {
    return fits32 ? launch_bww<T, int32_t>(pl, a, gy, x, gw, ws, stream)
                  : launch_bww<T, int64_t>(pl, a, gy, x, gw, ws, stream);
}

/* ============================================================== grad_b */
/* Block (c, sp) sums channel c over every sample and positions [sp*Ls, (sp+1)*Ls) with a fixed
 * assignment of elements to threads and a fixed-order tree. With one split it writes grad_b[c]; else
 * its partial, and bias_split_sum adds the splits in order: deterministic either way. The split count
 * depends on the problem only (few channels on long rows would otherwise leave most SMs idle). */
constexpr int kBiasThreads = 512;

/* acc += the elements of the 16-byte vectors v[i0, i1): thread t takes i0 + t, i0 + t + B, ..., two loads in
 * flight (tid: threadIdx.x); vector elements alternate between two accumulators of each pair. */
template <typename T, typename I>
__device__ __forceinline__ void bias_add_vectors(const uint4 *v, I i0, I i1, int tid, typename Elem<T>::Acc (&acc)[4]) {
    using E = Elem<T>;
    constexpr int VW = 16 / sizeof(T);
    for (I i = i0 + tid; i < i1; i += 2 * kBiasThreads) {
        T e[2][VW];
        const uint4 u0 = v[i];
        const uint4 u1 = i + kBiasThreads < i1 ? v[i + kBiasThreads] : make_uint4(0, 0, 0, 0);
        memcpy(e[0], &u0, 16);
        memcpy(e[1], &u1, 16); /* zero bits are +0 in every dtype */
#pragma unroll
        for (int j = 0; j < VW; ++j) {
            acc[j & 1] += E::load(e[0][j]);
            acc[2 + (j & 1)] += E::load(e[1][j]);
        }
    }
}

template <typename T, typename I>
__global__ void __launch_bounds__(kBiasThreads)
bias_kernel(const T *__restrict__ gy, T *__restrict__ gb, typename Elem<T>::Acc *__restrict__ part, int64_t N,
            int64_t Cout, int64_t Lout, int64_t splits, int64_t Ls, int vec) {
    using E = Elem<T>;
    using Acc = typename E::Acc;
    __shared__ Acc red[kBiasThreads];
    const int tid = threadIdx.x;
    const I L = (I)Lout, C = (I)Cout, NN = (I)N;
    for (int64_t b64 = blockIdx.x; b64 < Cout * splits; b64 += gridDim.x) {
        const I c = (I)(b64 / splits), sp = (I)(b64 - (int64_t)c * splits);
        const I l0 = sp * (I)Ls, l1 = l0 + (I)Ls < L ? l0 + (I)Ls : L; /* Ls: a multiple of the vector width */
        Acc acc[4] = {Acc(0), Acc(0), Acc(0), Acc(0)};
        if (vec == 2) {
            /* Rows not 16-byte aligned (odd L_out, say: depthwise_s2's 32769): per row, the elements up to the
             * first 16-byte boundary one per thread, the middle by 128-bit loads (two in flight per thread), the
             * rest one per thread. */
            constexpr int VW = 16 / sizeof(T);
            const I len = l1 - l0;
            for (I n = 0; n < NN; ++n) {
                const T *p0 = gy + (n * C + c) * L + l0;
                I head = (I)(((16 - (reinterpret_cast<uintptr_t>(p0) & 15)) & 15) / sizeof(T));
                head = head < len ? head : len;
                if (tid < head) acc[0] += E::load(p0[tid]);
                const I nv = (len - head) / VW;
                bias_add_vectors<T, I>(reinterpret_cast<const uint4 *>(p0 + head), I(0), nv, tid, acc);
                const I t0 = head + nv * VW;
                if (t0 + tid < len) acc[1] += E::load(p0[t0 + tid]);
            }
        } else if (vec) {
            /* Rows are 16-byte aligned: 128-bit loads, two in flight per thread. */
            constexpr int VW = 16 / sizeof(T);
            const I v0 = l0 / VW, v1 = (l1 + VW - 1) / VW; /* l1 < L only at a multiple of VW */
            for (I n = 0; n < NN; ++n)
                bias_add_vectors<T, I>(reinterpret_cast<const uint4 *>(gy + (n * C + c) * L), v0, v1, tid, acc);
        } else if (l1 - l0 >= kBiasThreads) {
            for (I n = 0; n < NN; ++n) {
                const T *row = gy + (n * C + c) * L;
                I o = l0 + tid;
                /* Four independent loads in flight per thread. */
                for (; o + 3 * kBiasThreads < l1; o += 4 * kBiasThreads) {
#pragma unroll
                    for (int u = 0; u < 4; ++u) acc[u] += E::load(row[o + u * kBiasThreads]);
                }
                /* At most three left: o, o + B, o + 2B. */
                if (o < l1) acc[0] += E::load(row[o]);
                if (o + kBiasThreads < l1) acc[1] += E::load(row[o + kBiasThreads]);
                if (o + 2 * kBiasThreads < l1) acc[2] += E::load(row[o + 2 * kBiasThreads]);
            }
        } else {
            const I w = l1 - l0, total = NN * w;
            for (I e = tid; e < total; e += kBiasThreads) {
                const I n = e / w, o = l0 + (e - n * w);
                acc[0] += E::load(gy[(n * C + c) * L + o]);
            }
        }
        red[tid] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        __syncthreads();
        for (int st = kBiasThreads / 2; st > 0; st >>= 1) {
            if (tid < st) red[tid] += red[tid + st];
            __syncthreads();
        }
        if (tid == 0) {
            if (splits == 1)
                gb[c] = E::store(red[0]);
            else
                part[b64] = red[0];
        }
        __syncthreads();
    }
}

/* grad_b[c] = the splits' partials of channel c, added in split order. */
template <typename T>
__global__ void __launch_bounds__(256)
bias_split_sum(const typename Elem<T>::Acc *__restrict__ part, T *__restrict__ gb, int64_t Cout, int64_t splits) {
    using E = Elem<T>;
    const int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= Cout) return;
    typename Elem<T>::Acc s = 0;
    for (int64_t sp = 0; sp < splits; ++sp) s += part[c * splits + sp];
    gb[c] = E::store(s);
}

template <typename T>
convt1d_status launch_bias(bool fits32, const convt1d_problem &pr, const void *gy, void *gb,
                           cudaStream_t stream) {
    using Acc = typename Elem<T>::Acc;
    const int64_t C = pr.p.out_channels, L = pr.out_length;
    const T *g = static_cast<const T *>(gy);
    T *b = static_cast<T *>(gb);
    /* Vector loads need every row 16-byte aligned; rows long enough that most threads have work. */
    const bool aligned = (reinterpret_cast<uintptr_t>(gy) % 16) == 0 && (L * (int64_t)sizeof(T)) % 16 == 0;
    const bool long_rows = L * (int64_t)sizeof(T) >= 16 * kBiasThreads;
    /* Unaligned long rows take 128-bit loads between per-row heads and tails (vec 2; CONVT1D_BIAS_ROWVEC=0 keeps
     * them on one load per element, as before session 17: A/B). */
    const char *rv = convt1d_env("CONVT1D_BIAS_ROWVEC");
    const int vec = !long_rows ? 0 : aligned ? 1 : (rv && rv[0] == '0') ? 0 : 2;
    /* Splits along the row: about 512 blocks in all, each with at least 64K elements to sum. */
    const int64_t VW = 16 / (int64_t)sizeof(T);
    int64_t splits = (512 + C - 1) / C;
    const int64_t by_work = pr.p.batch * L / 65536;
    if (splits > by_work) splits = by_work;
    if (splits > 64) splits = 64;
    if (splits < 1) splits = 1;
    int64_t Ls = (L + splits - 1) / splits;
    Ls = (Ls + VW - 1) / VW * VW;
    splits = (L + Ls - 1) / Ls;
    Acc *part = nullptr;
    if (splits > 1 && cudaMallocAsync((void **)&part, (size_t)(C * splits) * sizeof(Acc), stream) != cudaSuccess) {
        (void)cudaGetLastError(); /* no scratch: one block per channel, still correct */
        splits = 1;
        Ls = L;
    }
    const int64_t blocks = C * splits;
    const unsigned grid = (unsigned)(blocks < (int64_t(1) << 30) ? blocks : (int64_t(1) << 30));
    if (fits32)
        bias_kernel<T, int32_t><<<grid, kBiasThreads, 0, stream>>>(g, b, part, pr.p.batch, C, L, splits, Ls, vec);
    else
        bias_kernel<T, int64_t><<<grid, kBiasThreads, 0, stream>>>(g, b, part, pr.p.batch, C, L, splits, Ls, vec);
    if (splits > 1) {
        bias_split_sum<T><<<(unsigned)((C + 255) / 256), 256, 0, stream>>>(part, b, C, splits);
        cudaFreeAsync(part, stream);
    }
    return convt1d_cuda_check("backward_bias (direct kernel) launch");
}

} // namespace

/* ---------------------------------------------------------------- entry points for api.cu */

convt1d_status convt1d_bwd_input_direct(const convt1d_problem &pr, const void *grad_y, const void *w,
                                        void *grad_x, cudaStream_t stream) {
    const convt1d_params &p = pr.p;
    BwiArgs a;
    a.N = p.batch; a.Cin = p.in_channels; a.Cout = p.out_channels; a.Lin = p.in_length;
    a.Lout = pr.out_length; a.K = p.kernel_size; a.s = p.stride; a.p = p.padding; a.d = p.dilation;
    a.G = p.groups; a.cin_g = pr.cin_g; a.cout_g = pr.cout_g;
    if (a.N == 0) return CONVT1D_SUCCESS;

    const size_t acc_size = pr.dtype == CONVT1D_F64 ? 8 : 4;
    const int max_cit = pr.dtype == CONVT1D_F64 ? 8 : 16;
    int cit = 1;
    while (cit < max_cit && cit < a.cin_g) cit *= 2;
    int wc = 1;
    while (wc < 4 && (int64_t)cit * wc < a.cin_g) wc *= 2;
    a.wc = wc;
    const int cib = cit * wc, wq = 4 / wc;
    const int64_t ib = 32 * kBxP * wq;
    a.itiles = ceil_div(a.Lin, ib);
    a.citiles = ceil_div(a.cin_g, cib);

    const int64_t budget = kBxSmemBytes / (int64_t)acc_size;
    int64_t tap_chunk = budget / cib;
    if (tap_chunk > a.K) tap_chunk = a.K;
    int64_t co_chunk = budget / (tap_chunk * cib);
    if (co_chunk > a.cout_g) co_chunk = a.cout_g;
    if (co_chunk > 64) co_chunk = 64;
    if (co_chunk < 1) co_chunk = 1;
    a.tap_chunk = (int)tap_chunk;
    a.co_chunk = (int)co_chunk;
    const size_t smem = (size_t)(co_chunk * tap_chunk * cib) * acc_size;

    int64_t total;
    if (__builtin_mul_overflow(a.N * a.G, a.itiles, &total) || __builtin_mul_overflow(total, a.citiles, &total))
        return convt1d_fail(CONVT1D_ERROR_OVERFLOW, "backward_input: tile count overflows int64");
    a.total = total;

    const int64_t nx = a.N * a.Cin * a.Lin, ny = a.N * a.Cout * a.Lout, nw = a.Cin * a.cout_g * a.K;
    /* i*s - p + k*d over padded tile ends must stay inside int32 too. */
    const bool fits32 = !force_index64() && nx < kLim32 && ny < kLim32 && nw < kLim32 && total < kLim32 &&
                        a.Lin + ib * 2 < kLim32 / 2 / a.s && a.d * (a.K - 1) < kLim32 / 4 &&
                        a.p < kLim32 / 4 && a.Lout < kLim32 / 4;

    switch (pr.dtype) {
    case CONVT1D_F32: return dispatch_bx_index<float>(fits32, cit, a, smem, grad_y, w, grad_x, stream);
    case CONVT1D_F64: return dispatch_bx_index<double>(fits32, cit, a, smem, grad_y, w, grad_x, stream);
    case CONVT1D_F16: return dispatch_bx_index<__half>(fits32, cit, a, smem, grad_y, w, grad_x, stream);
    case CONVT1D_BF16: return dispatch_bx_index<__nv_bfloat16>(fits32, cit, a, smem, grad_y, w, grad_x, stream);
    }
    return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "backward_input: unknown dtype %d", (int)pr.dtype);
}

convt1d_status convt1d_bwd_weight_workspace(const convt1d_problem &pr, size_t *bytes) {
    *bytes = plan_bww(pr).bytes;
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_bwd_weight_direct(const convt1d_problem &pr, const void *grad_y, const void *x,
                                         void *grad_w, void *workspace, size_t workspace_bytes,
                                         cudaStream_t stream) {
    const convt1d_params &p = pr.p;
    const BwwPlan pl = plan_bww(pr);
    if (p.batch == 0) return CONVT1D_SUCCESS;
    if (workspace_bytes < pl.bytes)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE,
                            "backward_weight: workspace_bytes is %zu but this problem needs %zu "
                            "(ask convt1d_backward_weight_workspace_size)",
                            workspace_bytes, pl.bytes);
    if (pl.bytes > 0 && !workspace)
        return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "backward_weight: workspace must not be NULL "
                            "(this problem needs %zu bytes)", pl.bytes);
    const size_t acc_size = pr.dtype == CONVT1D_F64 ? 8 : 4;
    if (reinterpret_cast<uintptr_t>(workspace) % acc_size != 0)
        return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "backward_weight: workspace must be %zu-byte aligned", acc_size);
    BwwArgs a;
    a.N = p.batch; a.Cin = p.in_channels; a.Cout = p.out_channels; a.Lin = p.in_length;
    a.Lout = pr.out_length; a.K = p.kernel_size; a.s = p.stride; a.p = p.padding; a.d = p.dilation;
    a.G = p.groups; a.cin_g = pr.cin_g; a.cout_g = pr.cout_g;
    a.cols = pl.cols; a.numel_w = pl.numel_w; a.rtiles = pl.rtiles; a.ctiles = pl.ctiles;
    a.tiles = pl.tiles; a.cpr = pl.cpr; a.nchunks = pl.nchunks; a.splits = pl.splits;

    const int64_t nx = a.N * a.Cin * a.Lin, ny = a.N * a.Cout * a.Lout;
    const bool fits32 = !force_index64() && nx < kLim32 && ny < kLim32 && a.numel_w < kLim32 && a.N * a.Cout < kLim32 &&
                        a.N * a.Cin < kLim32 && a.Lin + pl.width < kLim32 / 2 / a.s &&
                        a.d * (a.K - 1) < kLim32 / 4 && a.p < kLim32 / 4 && a.Lout < kLim32 / 4;

    switch (pr.dtype) {
    case CONVT1D_F32: return launch_bww_index<float>(fits32, pl, a, grad_y, x, grad_w, workspace, stream);
    case CONVT1D_F64: return launch_bww_index<double>(fits32, pl, a, grad_y, x, grad_w, workspace, stream);
    case CONVT1D_F16: return launch_bww_index<__half>(fits32, pl, a, grad_y, x, grad_w, workspace, stream);
    case CONVT1D_BF16: return launch_bww_index<__nv_bfloat16>(fits32, pl, a, grad_y, x, grad_w, workspace, stream);
    }
    return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "backward_weight: unknown dtype %d", (int)pr.dtype);
}

convt1d_status convt1d_bwd_bias_direct(const convt1d_problem &pr, const void *grad_y, void *grad_b,
                                       cudaStream_t stream) {
    if (pr.p.batch == 0) return CONVT1D_SUCCESS;
    const int64_t ny = pr.p.batch * pr.p.out_channels * pr.out_length;
    const bool fits32 = !force_index64() && ny < kLim32;
    switch (pr.dtype) {
    case CONVT1D_F32: return launch_bias<float>(fits32, pr, grad_y, grad_b, stream);
    case CONVT1D_F64: return launch_bias<double>(fits32, pr, grad_y, grad_b, stream);
    case CONVT1D_F16: return launch_bias<__half>(fits32, pr, grad_y, grad_b, stream);
    case CONVT1D_BF16: return launch_bias<__nv_bfloat16>(fits32, pr, grad_y, grad_b, stream);
    }
    return convt1d_fail(CONVT1D_ERROR_INVALID_VALUE, "backward_bias: unknown dtype %d", (int)pr.dtype);
}
