/* grad_input of narrow layers whose taps all read one phase of grad_y (dilation a multiple of the stride:
 * KernelBench 79; stride 1 is the case s = 1): with d = m*s and -p = c*s + r (one_phase_problem, kernels.cuh),
 *   grad_x[n, ci, l] = sum_{co, k} w[ci, co, k] * gy_r[n, co, l + c + k*m],   gy_r[t] = grad_y[r + s*t], t < Q,
 * a stride-1 correlation of phase r of grad_y. It is bandwidth-bound (KernelBench 79: grad_y 1.07 GB read,
 * grad_x 0.27 GB written, 26 GFLOP), so one persistent launch reads each grad_y element once:
 *
 *  - a block owns all C_in <= 32 rows (C_out <= 64) of grad_x for 128 consecutive positions of one sample;
 *  - its window (phase r of every grad_y channel over 128 + (K-1)*m positions: strided reads, whole sectors
 *    fetched either way) is loaded into registers one tile ahead and stored to shared memory as 32-bit words
 *    (fp32 values, or channel pairs in 16-bit) laid out as fwd_tc_kernel.cuh's fragments want them;
 *  - the weights, as mma.sync A fragments for every k-step (8 grad_y channels x one tap), sit in shared
 *    memory for the whole loop (one 16-byte load per lane per k-step);
 *  - results go straight from the accumulators to grad_x (pairs of positions: whole 32-byte sectors).
 * The general grad_input kernels read grad_y as s phase planes or as a strided implicit GEMM over all of
 * C_out * K, paying for the empty phases' gather or scratch. */
#include <limits.h>
#include <stdlib.h>

#include "fwd_tc_kernel.cuh"
#include "kernels.cuh"
#include "persistent_launch.cuh"

namespace {

using namespace convt1d_tc;

constexpr int BM = 32;              /* grad_x rows (input channels) per block: all of the layer's */
constexpr int BT = 128;             /* grad_x positions per tile */
constexpr int NTH = 256;            /* 8 warps: 2 along the channels (16 each) x 4 along positions (32 each) */
constexpr int NT = 4;               /* n8 tiles per warp */
constexpr int HALO = 32;            /* widest tap spread (K-1)*m */
constexpr int WC = (BT + HALO) / 32; /* window columns per lane */
/* Window word rows per warp (8 warps): C_out <= 64 in either case (16-bit words hold two channels; more
 * would spill the staging registers on sm_80). */
template <int MODE> constexpr int rows_per_warp() { return MODE >= F16 ? 4 : 8; }

struct BiArgs {
    const void *gy, *w;
    void *gx;
    int cin, cout, K, L_in, L_out;
    int s, r, c, m, Q; /* phase r of grad_y; grad_x[l] reads gy_r[l + c + k*m] */
    int cb, nks;       /* 8-word-row blocks of grad_y channels (8 fp32 / 16 16-bit channels); k-steps = cb * K */
    int W, XP;         /* window columns BT + (K-1)*m; row pitch in words (8 mod 32) */
    int tiles_per_n, tiles;
};

template <int MODE>
__global__ void __launch_bounds__(NTH, 2) bwd_input_phase_fused_kernel(const BiArgs a) {
    constexpr bool HALF = MODE >= F16;
    constexpr bool SPLIT = MODE == F32X3;
    extern __shared__ __align__(16) uint32_t smem[];
    uint4 *af = (uint4 *)smem;                     /* [nks][2 warp rows][32 lanes] A fragments */
    uint4 *al = af + a.nks * 64;                   /* strict fp32: their small parts */
    uint32_t *xs = (uint32_t *)(af + a.nks * 64 * (SPLIT ? 2 : 1)); /* window [cb*8][XP] */
    const int rows = a.cb * 8;

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, tq = lane & 3;
    const int wm = warp & 1, wn = warp >> 1;

    /* A fragments of every k-step (ks = k * cb + channel block), each lane's four words together. */
    for (int i = tid; i < a.nks * 64; i += NTH) {
        const int ks = i >> 6, fm = (i >> 5) & 1, fl = i & 31;
        const int k = ks / a.cb, cbi = ks - k * a.cb, fg = fl >> 2, ft = fl & 3;
        uint32_t v[4], lo[4];
#pragma unroll
        for (int e = 0; e < 4; ++e)
            v[e] = fused_weight_word<MODE, false>(a.w, fm * 16 + fg + (e & 1) * 8, cbi * 8 + ft + (e >> 1) * 4, k, a.cin,
                                                  a.cout, a.K, lo[e]);
        af[i] = make_uint4(v[0], v[1], v[2], v[3]);
        if (SPLIT) al[i] = make_uint4(lo[0], lo[1], lo[2], lo[3]);
    }

    /* Window of a tile: word row `row` (warp + 8i), column u (lane + 32j) holds gy_r[t0 + u] of grad_y
     * channel row (fp32) or channels 2row, 2row+1 (16-bit, low half first); zero outside gy_r and C_out. */
    constexpr int RI = rows_per_warp<MODE>();
    uint32_t wv[RI][WC], wh[HALF ? RI : 1][HALF ? WC : 1];
    auto load = [&](int tile) {
        const int n = tile / a.tiles_per_n, t0 = (tile - n * a.tiles_per_n) * BT + a.c;
#pragma unroll
        for (int i = 0; i < RI; ++i) {
            const int row = warp + 8 * i;
            const int c0 = HALF ? 2 * row : row;
            const bool rin = row < rows && c0 < a.cout;
            const int64_t base = ((int64_t)n * a.cout + c0) * a.L_out + a.r;
#pragma unroll
            for (int j = 0; j < WC; ++j) {
                const int u = lane + 32 * j, t = t0 + u;
                const bool ok = rin && u < a.W && t >= 0 && t < a.Q;
                const int64_t idx = base + (int64_t)t * a.s;
                wv[i][j] = ok ? raw_bits<MODE>(a.gy, idx) : 0u;
                if (HALF) wh[HALF ? i : 0][HALF ? j : 0] = ok && c0 + 1 < a.cout ? raw_bits<MODE>(a.gy, idx + a.L_out) : 0u;
            }
        }
    };
    auto store = [&]() {
#pragma unroll
        for (int i = 0; i < RI; ++i) {
            const int row = warp + 8 * i;
            if (row >= rows) break;
#pragma unroll
            for (int j = 0; j < WC; ++j) {
                const int u = lane + 32 * j;
                if (u < a.W) xs[row * a.XP + u] = HALF ? wv[i][j] | wh[HALF ? i : 0][HALF ? j : 0] << 16 : wv[i][j];
            }
        }
    };

    int tile = blockIdx.x;
    if (tile < a.tiles) load(tile);
    for (; tile < a.tiles; tile += gridDim.x) {
        store();
        __syncthreads(); /* window and (first time) A fragments visible */
        const int n = tile / a.tiles_per_n, l0 = (tile - n * a.tiles_per_n) * BT;
        if (tile + (int)gridDim.x < a.tiles) load(tile + gridDim.x); /* in flight during the math and stores */

        float acc[NT][4];
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[nt][e] = 0.f;
        const uint32_t *xb = xs + tq * a.XP + wn * (BT / 4) + g;
        int k = 0, cbi = 0;
#pragma unroll 2
        for (int ks = 0; ks < a.nks; ++ks) {
            const uint4 A4 = af[(ks * 2 + wm) * 32 + lane];
            const uint32_t A[4] = {A4.x, A4.y, A4.z, A4.w};
            uint32_t Al[4] = {0, 0, 0, 0};
            if (SPLIT) {
                const uint4 L4 = al[(ks * 2 + wm) * 32 + lane];
                Al[0] = L4.x, Al[1] = L4.y, Al[2] = L4.z, Al[3] = L4.w;
            }
            const uint32_t *p = xb + cbi * 8 * a.XP + k * a.m;
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) {
                uint32_t b[2] = {p[nt * 8], p[4 * a.XP + nt * 8]};
                fused_mma<MODE, true>(acc[nt], A, Al, b);
            }
            if (++cbi == a.cb) {
                cbi = 0;
                ++k;
            }
        }
        /* Rows wm*16 + g (+8), positions l0 + wn*32 + nt*8 + 2tq (+1): pairs where aligned and inside. */
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int ci = wm * 16 + g + 8 * h;
            if (ci >= a.cin) continue;
            const int64_t row = ((int64_t)n * a.cin + ci) * a.L_in;
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) {
                const int l = l0 + wn * (BT / 4) + nt * 8 + 2 * tq;
                const float v0 = acc[nt][2 * h], v1 = acc[nt][2 * h + 1];
                if (l + 1 < a.L_in && ((row + l) & 1) == 0) {
                    store_out2<MODE>(a.gx, row + l, v0, v1);
                } else {
                    if (l < a.L_in) store_out<MODE>(a.gx, row + l, v0);
                    if (l + 1 < a.L_in) store_out<MODE>(a.gx, row + l + 1, v1);
                }
            }
        }
        __syncthreads(); /* every warp is done with the window */
    }
}

template <int MODE> convt1d_status launch(const BiArgs &a, size_t smem, cudaStream_t stream) {
    static thread_local convt1d_persistent_cache cache;
    return convt1d_launch_persistent(bwd_input_phase_fused_kernel<MODE>, cache, a, a.tiles, NTH, smem, stream, "grad_input (fused one phase): launch");
}

} // namespace

convt1d_status convt1d_bwd_input_phase_fused(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                             cudaStream_t stream) {
    /* CONVT1D_BWD_INPUT_FUSED=0 off, 1 on wherever it applies; unset: where measured to gain (below). */
    const char *ev = convt1d_env("CONVT1D_BWD_INPUT_FUSED");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    if (env == 0 || pr.dtype == CONVT1D_F64 || P.groups != 1 || P.in_channels > BM || convt1d_sm_major() < 8)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const bool half = pr.dtype != CONVT1D_F32;
    if (P.out_channels > 64) return CONVT1D_ERROR_NOT_SUPPORTED;
    BiArgs a;
    one_phase_view v;
    if (!phase_view(pr, &v)) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.s = (int)v.s, a.r = (int)v.r, a.c = (int)v.c, a.m = (int)v.m, a.Q = (int)v.Q;
    /* Every size at stride >= 2; stride 1 only under 1M grad_input elements (at 4M+ the adjoint forward wins: KernelBench
     * 74, run 110). Run 149 (do_bench ms, this / as before): kernelbench_79_small 0.010 / 0.070 TF32, 0.014 / 0.070
     * strict, 0.018 / 0.067 bf16 (the direct kernel before); kernelbench_74_small (stride 1) 0.012 / 0.022, 0.017 /
     * 0.026, 0.010 / 0.014 (the adjoint forward before). */
    if (env < 0 && P.stride == 1 && P.batch * P.in_channels * P.in_length >= ((int64_t)1 << 20))
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t halo = (P.kernel_size - 1) * (int64_t)a.m;
    if (halo > HALO || pr.out_length >= INT_MAX / 2 || P.in_length + BT >= INT_MAX / 2 || P.padding >= INT_MAX / 4)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t tiles_per_n = (P.in_length + BT - 1) / BT;
    if (P.batch * tiles_per_n >= INT_MAX / 2) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.gy = grad_y, a.w = w, a.gx = grad_x;
    a.cin = (int)P.in_channels, a.cout = (int)P.out_channels, a.K = (int)P.kernel_size;
    a.L_in = (int)P.in_length, a.L_out = (int)pr.out_length;
    a.cb = (int)((P.out_channels + (half ? 15 : 7)) / (half ? 16 : 8));
    a.nks = (int)(a.cb * P.kernel_size);
    a.W = BT + (int)halo;
    a.XP = (a.W - 8 + 31) / 32 * 32 + 8;
    a.tiles_per_n = (int)tiles_per_n, a.tiles = (int)(P.batch * tiles_per_n);
    const bool split = pr.dtype == CONVT1D_F32 && pr.math == CONVT1D_MATH_STRICT_FP32;
    const size_t smem = (size_t)a.nks * 64 * 16 * (split ? 2 : 1) + (size_t)a.cb * 8 * a.XP * 4;
    switch (pr.dtype) {
    case CONVT1D_F16: return launch<F16>(a, smem, stream);
    case CONVT1D_BF16: return launch<BF16>(a, smem, stream);
    default: return split ? launch<F32X3>(a, smem, stream) : launch<TF32>(a, smem, stream);
    }
}
