/* grad_weight of narrow layers whose taps all read one phase of grad_y (dilation a multiple of the stride:
 * KernelBench 79; stride 1 is the case s = 1): with d = m*s and -p = c*s + r (one_phase_problem, kernels.cuh),
 *   grad_w[ci, co, k] = sum_{n, l} gy_r[n, co, l + c + k*m] * x[n, ci, l],   gy_r[t] = grad_y[r + s*t], t < Q,
 * per tap k a GEMM D_k[co][ci] whose reduction runs over (n, l). It is bandwidth-bound (KernelBench 79: grad_y
 * 1.07 GB and x 0.27 GB read, 26 GFLOP), so one persistent launch reads each element once:
 *
 *  - a block owns every (k, co, ci) of the layer (C_out <= 64, C_in <= 32, K <= 4) and walks tiles of 128
 *    consecutive positions l of one sample; its partial sums stay in registers (strict: shared memory) across
 *    its tiles;
 *  - per tile it stages x[n, :, l0 .. l0+127] by 16-byte cp.async (two buffers, one tile ahead) and the window
 *    of phase r of every grad_y channel, gy_r[n, :, l0 + c .. l0 + c + 127 + (K-1)*m] (strided reads: whole
 *    sectors are fetched either way), through registers one tile ahead, as bwd_input_phase_fused.cu does;
 *  - every tap is a shifted view of the same grad_y window (the mma.sync A operand, rows co, columns l) against
 *    the same x fragments (B, rows l, columns ci). In 16-bit an A word pairs two consecutive positions, so the
 *    window is kept twice, the second copy one element ahead: a tap shift of either parity reads aligned words;
 *  - strict fp32: each tile's products go into fresh accumulators, added to running sums in shared memory with
 *    IEEE adds (the tensor cores' fp32 accumulation truncates, ~1 ulp per mma: over a block's thousand mma of
 *    one output that is ~1e-4, fine for TF32 and 16-bit, which accumulate across tiles in registers);
 *  - each block writes its sums to scratch and a second kernel adds the blocks' partials in a fixed order
 *    (in double): the same bits on every run on a given device.
 * The general grad_weight kernels read both phases of grad_y as planes or gather phase r to scratch first
 * (bwd_weight_rs.cu), and do not take strict fp32 on the tensor cores' fast path. */
#include <limits.h>
#include <stdlib.h>

#include "fwd_tc_kernel.cuh"
#include "kernels.cuh"
#include "persistent_launch.cuh"

namespace {

using namespace convt1d_tc;

constexpr int BCO = 64;              /* GEMM rows: grad_y channels, all of the layer's */
constexpr int BCI = 32;              /* GEMM columns: input channels, all of the layer's */
constexpr int BT = 128;              /* positions per tile (the reduction) */
constexpr int NTH = 256;             /* 8 warps: 4 along C_out (16 rows) x 2 along C_in (2 n8 tiles) */
constexpr int HALO = 32;             /* widest tap spread (K-1)*m */
constexpr int WC = (BT + HALO) / 32; /* window columns per lane */
constexpr int RI = BCO / 8;          /* window rows per warp */
constexpr int SLOT = BCO * BCI;      /* one tap's partial sums per block */

struct BwArgs {
    const void *gy, *x;
    float *ws; /* [gridDim.x][K][BCO][BCI] the blocks' partial sums */
    int cin, cout, L_in, L_out;
    int s, r, c, m, Q; /* phase r of grad_y; tap k reads gy_r[l + c + k*m] */
    int W;             /* window columns BT + (K-1)*m */
    int GP, XP;        /* row pitches in words of the grad_y window (each copy) and of the x tile: 4 mod 32 */
    int tiles_per_n, tiles;
};

template <int MODE, int NK>
__global__ void __launch_bounds__(NTH, 2) bwd_weight_phase_fused_kernel(const BwArgs a) {
    constexpr bool HALF = MODE >= F16;
    constexpr bool SPLIT = MODE == F32X3;
    constexpr int KS = HALF ? BT / 16 : BT / 8; /* k-steps per tile */
    constexpr int VE = HALF ? 8 : 4;            /* elements per 16-byte piece of x */
    constexpr int XPIECES = BCI * BT / VE / NTH; /* x pieces per thread per tile */
    extern __shared__ __align__(16) uint32_t smem[];
    uint32_t *gs = smem;                                   /* grad_y window [BCO][GP] (16-bit: two copies) */
    uint32_t *xs0 = gs + BCO * a.GP * (HALF ? 2 : 1);      /* x tiles [2][BCI][XP] */
    float *ssum = (float *)(xs0 + 2 * BCI * a.XP);          /* strict: running sums [NK*8][NTH] */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, tq = lane & 3;
    const int mt = warp & 3, nh = warp >> 2;

    /* grad_y window of a tile in registers: row warp + 8i, column lane + 32j holds gy_r[t0 + column] (fp32 bits;
     * 16-bit: rows i and i + 1 share a register, i in the low half); zero outside gy_r and C_out. */
    constexpr int RW = HALF ? RI / 2 : RI;
    uint32_t wv[RW][WC];
    auto gload = [&](int tile) {
        const int n = tile / a.tiles_per_n, t0 = (tile - n * a.tiles_per_n) * BT + a.c;
#pragma unroll
        for (int i = 0; i < RI; ++i) {
            const int row = warp + 8 * i;
            const bool rin = row < a.cout;
            const int64_t base = ((int64_t)n * a.cout + row) * a.L_out + a.r;
#pragma unroll
            for (int j = 0; j < WC; ++j) {
                const int u = lane + 32 * j, t = t0 + u;
                const bool ok = rin && u < a.W && t >= 0 && t < a.Q;
                const uint32_t v = ok ? raw_bits<MODE>(a.gy, base + (int64_t)t * a.s) : 0u;
                if (!HALF) wv[i][j] = v;
                else if (i & 1) wv[i / 2][j] |= v << 16;
                else wv[i / 2][j] = v;
            }
        }
    };
    auto gstore = [&]() {
#pragma unroll
        for (int i = 0; i < RI; ++i) {
            const int row = warp + 8 * i;
#pragma unroll
            for (int j = 0; j < WC; ++j) {
                const int u = lane + 32 * j;
                if (u >= a.W) continue;
                if (HALF) { /* copy 0: element u at halfword u; copy 1: at halfword u - 1 */
                    uint16_t *h = (uint16_t *)(gs + row * a.GP);
                    const uint16_t v = (uint16_t)(wv[i / 2][j] >> (16 * (i & 1)));
                    h[u] = v;
                    if (u > 0) h[2 * BCO * a.GP + u - 1] = v;
                } else {
                    gs[row * a.GP + u] = MODE == TF32 ? tf32_rn(wv[i][j]) : wv[i][j];
                }
            }
        }
    };
    /* x tile by 16-byte cp.async: piece tid + NTH*j is row (piece / (BT/VE)), elements VE*(piece % (BT/VE)).
     * L_in is a multiple of VE, so a piece is wholly inside x or wholly zero. */
    auto xload = [&](int tile, int buf) {
        const int n = tile / a.tiles_per_n, l0 = (tile - n * a.tiles_per_n) * BT;
        uint32_t *xs = xs0 + buf * BCI * a.XP;
#pragma unroll
        for (int j = 0; j < XPIECES; ++j) {
            const int piece = tid + NTH * j, row = piece / (BT / VE), q = piece % (BT / VE);
            const int l = l0 + q * VE;
            const bool ok = row < a.cin && l < a.L_in;
            const char *src = (const char *)a.x + (ok ? (((int64_t)n * a.cin + row) * a.L_in + l) * (HALF ? 2 : 4) : 0);
            cp_async16z(smem_u32(xs + row * a.XP + q * 4), src, ok);
        }
        cp_async_commit();
    };

    /* Tap k's A words start off[k] words into the window: the tap shift, in 16-bit as (copy, word). */
    int off[NK];
#pragma unroll
    for (int k = 0; k < NK; ++k) {
        const int sh = k * a.m;
        off[k] = HALF ? (sh & 1) * BCO * a.GP + (sh >> 1) : sh;
    }

    float acc[NK][2][4];
    /* f(accumulator, its strict running-sum slot) for each of the thread's accumulators. */
    auto each_acc = [&](auto f) {
#pragma unroll
        for (int k = 0; k < NK; ++k)
#pragma unroll
            for (int nt = 0; nt < 2; ++nt)
#pragma unroll
                for (int e = 0; e < 4; ++e) f(acc[k][nt][e], ssum + ((k * 2 + nt) * 4 + e) * NTH + tid);
    };
    each_acc([&](float &v, float *sum) {
        v = 0.f;
        if (SPLIT) *sum = 0.f;
    });

    int tile = blockIdx.x, buf = 0;
    if (tile < a.tiles) {
        gload(tile);
        xload(tile, 0);
    }
    for (; tile < a.tiles; tile += gridDim.x, buf ^= 1) {
        gstore();
        cp_async_wait<0>();
        __syncthreads(); /* this tile's grad_y window and x tile visible */
        if (tile + (int)gridDim.x < a.tiles) { /* in flight during the math */
            gload(tile + gridDim.x);
            xload(tile + gridDim.x, buf ^ 1);
        }

        const uint32_t *xb = xs0 + buf * BCI * a.XP + (nh * 16 + g) * a.XP + tq;
        const uint32_t *gb = gs + (mt * 16 + g) * a.GP + tq;
#pragma unroll 2
        for (int ks = 0; ks < KS; ++ks) {
            uint32_t b[2][2], bs[2][2];
#pragma unroll
            for (int nt = 0; nt < 2; ++nt) {
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const uint32_t v = xb[nt * 8 * a.XP + ks * 8 + 4 * e];
                    b[nt][e] = MODE == TF32 || SPLIT ? tf32_rn(v) : v;
                    bs[nt][e] = SPLIT ? __float_as_uint(__uint_as_float(v) - __uint_as_float(b[nt][e])) : 0u;
                }
            }
#pragma unroll
            for (int k = 0; k < NK; ++k) {
                const uint32_t *p = gb + off[k] + ks * 8;
                uint32_t A[4] = {p[0], p[8 * a.GP], p[4], p[8 * a.GP + 4]}, As[4] = {0, 0, 0, 0};
                if (SPLIT) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const uint32_t big = tf32_rn(A[e]);
                        As[e] = __float_as_uint(__uint_as_float(A[e]) - __uint_as_float(big));
                        A[e] = big;
                    }
                }
#pragma unroll
                for (int nt = 0; nt < 2; ++nt) {
                    if (SPLIT) { /* big*big + big*small + small*big; small*small dropped */
                        uint32_t bsm[2] = {bs[nt][0], bs[nt][1]};
                        mma_tf32(acc[k][nt], As, b[nt]);
                        mma_tf32(acc[k][nt], A, bsm);
                        mma_tf32(acc[k][nt], A, b[nt]);
                    } else if (MODE == TF32) {
                        mma_tf32(acc[k][nt], A, b[nt]);
                    } else {
                        mma_16<MODE>(acc[k][nt], A, b[nt]);
                    }
                }
            }
        }
        if (SPLIT) /* this tile's products into the running sums (this thread's own slots), fresh registers */
            each_acc([&](float &v, float *sum) {
                *sum += v;
                v = 0.f;
            });
        __syncthreads(); /* every warp is done with the window and this x tile */
    }

    /* Rows co = mt*16 + g (+8), columns ci = nh*16 + nt*8 + 2tq (+1). */
    float *ws = a.ws + (int64_t)blockIdx.x * NK * SLOT;
#pragma unroll
    for (int k = 0; k < NK; ++k)
#pragma unroll
        for (int nt = 0; nt < 2; ++nt)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int co = mt * 16 + g + 8 * h, ci = nh * 16 + nt * 8 + 2 * tq;
                const int e = (k * 2 + nt) * 4 + 2 * h;
                const float v0 = SPLIT ? ssum[e * NTH + tid] : acc[k][nt][2 * h];
                const float v1 = SPLIT ? ssum[(e + 1) * NTH + tid] : acc[k][nt][2 * h + 1];
                *(float2 *)(ws + k * SLOT + co * BCI + ci) = make_float2(v0, v1);
            }
}

/* grad_w[ci, co, k] = sum over the blocks, in block order, of their partials (in double). */
template <int MODE>
__global__ void __launch_bounds__(256) bwd_weight_phase_fused_reduce(const float *ws, void *gw, int blocks, int cin, int cout,
                                                                    int K) {
    const int idx = blockIdx.x * 256 + threadIdx.x; /* (k, co, ci), ci fastest: coalesced partial reads */
    const int ci = idx % BCI, co = idx / BCI % BCO, k = idx / SLOT;
    if (k >= K || co >= cout || ci >= cin) return;
    double s = 0.0;
#pragma unroll 8
    for (int b = 0; b < blocks; ++b) s += ws[(int64_t)b * K * SLOT + idx];
    store_out<MODE>(gw, ((int64_t)ci * cout + co) * K + k, (float)s);
}

template <int MODE, int NK>
convt1d_status launch(BwArgs a, int K, size_t smem, void *gw, cudaStream_t stream) {
    static thread_local convt1d_persistent_cache cache;
    auto kern = bwd_weight_phase_fused_kernel<MODE, NK>;
    int grid = 0;
    const convt1d_status st = convt1d_persistent_grid(kern, cache, a.tiles, NTH, smem, &grid);
    if (st != CONVT1D_SUCCESS) return st;
    void *scratch = nullptr;
    cudaError_t e = cudaMallocAsync(&scratch, (size_t)grid * K * SLOT * sizeof(float), stream);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return CONVT1D_ERROR_NOT_SUPPORTED; /* no room: other kernels need less */
    }
    a.ws = static_cast<float *>(scratch);
    kern<<<grid, NTH, smem, stream>>>(a);
    e = cudaGetLastError();
    if (e == cudaSuccess) {
        bwd_weight_phase_fused_reduce<MODE><<<(K * SLOT + 255) / 256, 256, 0, stream>>>(a.ws, gw, grid, a.cin, a.cout, K);
        e = cudaGetLastError();
    }
    const cudaError_t f = cudaFreeAsync(scratch, stream);
    if (e == cudaSuccess) e = f;
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "grad_weight (fused one phase): launch failed: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

template <int MODE>
convt1d_status launch_taps(const BwArgs &a, int K, size_t smem, void *gw, cudaStream_t stream) {
    switch (K) {
    case 1: return launch<MODE, 1>(a, K, smem, gw, stream);
    case 2: return launch<MODE, 2>(a, K, smem, gw, stream);
    case 3: return launch<MODE, 3>(a, K, smem, gw, stream);
    default: return launch<MODE, 4>(a, K, smem, gw, stream);
    }
}

} // namespace

convt1d_status convt1d_bwd_weight_phase_fused(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                              cudaStream_t stream) {
    /* CONVT1D_BWD_WEIGHT_FUSED=0 off, 1 on wherever it applies; unset: where measured to gain (below). */
    const char *ev = convt1d_env("CONVT1D_BWD_WEIGHT_FUSED");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    if (env == 0 || pr.dtype == CONVT1D_F64 || P.groups != 1 || P.in_channels > BCI || P.out_channels > BCO ||
        P.kernel_size > 4 || P.batch == 0 || convt1d_sm_major() < 8)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    BwArgs a;
    one_phase_view v;
    if (!phase_view(pr, &v)) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.s = (int)v.s, a.r = (int)v.r, a.c = (int)v.c, a.m = (int)v.m, a.Q = (int)v.Q;
    /* Every size at stride >= 2 (run 149, do_bench ms, this / the direct kernels: kernelbench_79_small 0.013 / 0.046
     * TF32, 0.015 / 0.046 strict, 0.013 / 0.045 bf16); stride 1 stays on the general kernels (not measured to gain). */
    if (env < 0 && P.stride == 1) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int es = pr.dtype == CONVT1D_F32 ? 4 : 2;
    const int64_t halo = (P.kernel_size - 1) * (int64_t)a.m;
    /* x by 16-byte pieces: rows of whole pieces, a 16-byte aligned base. */
    if (halo > HALO || (P.in_length * es) % 16 != 0 || ((uintptr_t)x & 15) != 0 || pr.out_length >= INT_MAX / 2 ||
        P.in_length + BT >= INT_MAX / 2 || P.padding >= INT_MAX / 4)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t tiles_per_n = (P.in_length + BT - 1) / BT;
    if (P.batch * tiles_per_n >= INT_MAX / 2) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.gy = grad_y, a.x = x, a.ws = nullptr;
    a.cin = (int)P.in_channels, a.cout = (int)P.out_channels;
    a.L_in = (int)P.in_length, a.L_out = (int)pr.out_length;
    a.W = BT + (int)halo;
    const int gwords = es == 4 ? a.W : (a.W + 1) / 2, xwords = BT * es / 4;
    a.GP = (gwords - 4 + 31) / 32 * 32 + 4;
    a.XP = (xwords - 4 + 31) / 32 * 32 + 4;
    a.tiles_per_n = (int)tiles_per_n, a.tiles = (int)(P.batch * tiles_per_n);
    const bool split = pr.dtype == CONVT1D_F32 && pr.math == CONVT1D_MATH_STRICT_FP32;
    const size_t smem = ((size_t)BCO * a.GP * (es == 2 ? 2 : 1) + 2 * (size_t)BCI * a.XP +
                         (split ? (size_t)P.kernel_size * 8 * NTH : 0)) * 4;
    const int K = (int)P.kernel_size;
    switch (pr.dtype) {
    case CONVT1D_F16: return launch_taps<F16>(a, K, smem, grad_w, stream);
    case CONVT1D_BF16: return launch_taps<BF16>(a, K, smem, grad_w, stream);
    default:
        return split ? launch_taps<F32X3>(a, K, smem, grad_w, stream)
                                                   : launch_taps<TF32>(a, K, smem, grad_w, stream);
    }
}
