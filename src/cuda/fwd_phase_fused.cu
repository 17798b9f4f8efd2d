/* Fused forward of narrow layers whose taps all land on one phase of y: every stride-1 layer, and strided
 * layers with the dilation a multiple of the stride (KernelBench 79; one_phase_problem, kernels.cuh). Phase r
 * of y is the stride-1 problem  yr[t] = sum_{ci,k} w[ci,co,k] x[t + pq - k*m], y[r + s*t] = yr[t] + bias, and
 * every other element of y is the bias. Such layers are pure bandwidth (KernelBench 79: 26 GFLOP for 1.3 GB),
 * so each element of x is read once and each element of y written once, in one launch:
 *
 *  - a block owns all C_out <= 64 output channels of BT = 128 consecutive phase positions t of one sample,
 *    i.e. the s*BT contiguous elements [s*t0, s*t0 + s*BT) of each y row (the other phases included);
 *  - the x window (all input channels, BT + (K-1)*m columns) is staged in shared memory one tile ahead
 *    (fp32: 4-byte cp.async, double buffered; 16-bit: through registers, to pair channels), in 32-bit words
 *    as fwd_tc_kernel.cuh lays them out, so each tap is a shifted view of the window;
 *  - the weights (C_in * K <= 96 per 8-row k-step budget) are loaded once per block into the warps' mma.sync
 *    A fragments, registers, for the whole persistent loop;
 *  - the tile's results go to shared memory and the block writes its y rows interleaved with the bias as
 *    16-byte vectors (rows are rarely 16-byte aligned: L_out is odd on KernelBench 79).
 * The one-phase path it replaces (fwd_one_phase.cu) wrote phase r to scratch and scattered it in a second pass;
 * the general kernels multiply the empty phases' zero taps or store fragments s elements apart. */
#include <limits.h>
#include <stdlib.h>

#include <type_traits>

#include "fwd_tc_kernel.cuh"
#include "kernels.cuh"

namespace {

using namespace convt1d_tc;

constexpr int BM = 64;       /* output channels per block: all of the layer's */
constexpr int BT = 128;      /* phase positions per tile */
constexpr int NTH = 256;     /* 8 warps: 4 along the channels (16 each) x 2 along positions (64 each) */
constexpr int NT = 8;        /* n8 tiles per warp */
constexpr int KS = 12;       /* most k-steps (8 word rows x one tap each): C_in*K <= 96 fp32, 192 16-bit */
constexpr int HALO = 32;     /* widest tap spread (K-1)*m */
constexpr int YP = BT + 8;   /* result tile row pitch (floats): the float2 fragment stores are conflict free */
constexpr int SW16 = 12;     /* 16-bit window words per thread in flight (window words <= 256 * SW16) */

struct FusedArgs {
    const void *x, *w, *bias;
    void *y;
    int cin, cout, K, L_in, L_out;
    int s, r, pq, m; /* phase r of stride s; its stride-1 problem reads x[t + pq - k*m] */
    int cb, nks;     /* 8-word-row blocks of input channels; k-steps = cb * K */
    int W, XP;       /* window columns BT + (K-1)*m; window row pitch in words (8 mod 32) */
    int tiles_per_n, tiles;
};

/* fp32 data: TF32 rounding as an integer add (cvt.rna.tf32 is a multi-instruction sequence on sm_90). */
__device__ __forceinline__ uint32_t tf32_rn(uint32_t v) { return (v + 0x1000u) & 0xffffe000u; }

/* Thread tid's words of a window (rows x W, row-major, consecutive threads on consecutive columns so that
 * the global loads coalesce): f(i, row, col) for its i-th word. */
template <typename F> __device__ __forceinline__ void for_my_words(const FusedArgs &a, int rows, F f) {
    int row = threadIdx.x / a.W, col = threadIdx.x % a.W;
    for (int i = 0; row < rows; ++i) {
        f(i, row, col);
        col += NTH;
        while (col >= a.W) {
            col -= a.W;
            ++row;
        }
    }
}

template <int MODE> struct Fused {
    static constexpr bool HALF = MODE >= F16;
    static constexpr int VE = HALF ? 8 : 4; /* elements per 16-byte store */
    using T = typename std::conditional<HALF, unsigned short, float>::type;

    static __device__ __forceinline__ T to_out(float v) {
        if (MODE == F16) return __half_as_ushort(__float2half_rn(v));
        if (MODE == BF16) return __bfloat16_as_ushort(__float2bfloat16_rn(v));
        return v;
    }
};

template <int MODE>
__global__ void __launch_bounds__(NTH, MODE == F32X3 ? 1 : 2) fwd_phase_fused_kernel(const FusedArgs a) {
    constexpr bool HALF = MODE >= F16;
    constexpr int VE = Fused<MODE>::VE;
    using T = typename Fused<MODE>::T;
    extern __shared__ __align__(16) uint32_t smem[];
    const int rows = a.cb * 8, xwords = rows * a.XP;
    uint32_t *xs0 = smem;                                 /* window(s): [2 (fp32) or 1][rows][XP] */
    float *ys = (float *)(smem + (HALF ? 1 : 2) * xwords); /* results: [BM][YP] */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, tq = lane & 3;
    const int wm = warp & 3, wn = warp >> 2;

    /* The warp's A fragments (rows wm*16 + g (+8), word rows tq (+4) of each k-step), for the whole loop. */
    uint32_t af[KS][4], al[MODE == F32X3 ? KS : 1][4];
    {
        int k = 0, cbi = 0;
#pragma unroll
        for (int ks = 0; ks < KS; ++ks) {
            if (ks < a.nks) {
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int co = wm * 16 + g + (e & 1) * 8, wr = cbi * 8 + tq + (e >> 1) * 4;
                    uint32_t v = 0;
                    if (co < a.cout) {
#pragma unroll
                        for (int h = 0; h < (HALF ? 2 : 1); ++h) {
                            const int ci = HALF ? 2 * wr + h : wr;
                            if (ci < a.cin) v |= raw_bits<MODE>(a.w, ((int64_t)ci * a.cout + co) * a.K + k) << (16 * h);
                        }
                    }
                    if (MODE == TF32) v = to_tf32(v);
                    if (MODE == F32X3) { /* v = big + small, both tf32 */
                        const uint32_t big = to_tf32(v);
                        al[MODE == F32X3 ? ks : 0][e] = to_tf32(__float_as_uint(__uint_as_float(v) - __uint_as_float(big)));
                        v = big;
                    }
                    af[ks][e] = v;
                }
                if (++cbi == a.cb) {
                    cbi = 0;
                    ++k;
                }
            }
        }
    }
    float bias_r[BM / 8]; /* the bias of the rows this warp writes: warp, warp + 8, ... */
#pragma unroll
    for (int i = 0; i < BM / 8; ++i) {
        const int co = warp + 8 * i;
        bias_r[i] = a.bias && co < a.cout ? load_bias<MODE>(a.bias, co) : 0.f;
    }

    /* Window of tile `tile`: sample n, columns starting at input index lw0. */
    auto window = [&](int tile, int &n, int &t0, int &lw0) {
        n = tile / a.tiles_per_n;
        t0 = (tile - n * a.tiles_per_n) * BT;
        lw0 = t0 + a.pq - (a.K - 1) * a.m;
    };
    /* fp32: issue the window's copies (zero-filled outside x and past C_in). */
    auto issue32 = [&](int tile, uint32_t *xs) {
        int n, t0, lw0;
        window(tile, n, t0, lw0);
        const float *xn = (const float *)a.x + (int64_t)n * a.cin * a.L_in;
        for_my_words(a, rows, [&](int, int row, int col) {
            const int l = lw0 + col;
            const bool ok = row < a.cin && l >= 0 && l < a.L_in;
            cp_async4(smem_u32(xs + row * a.XP + col), ok ? xn + (int64_t)row * a.L_in + l : xn, ok);
        });
    };
    /* 16-bit: the window's channel pairs into registers (lo, hi), stored as words by store16. */
    uint32_t lo[HALF ? SW16 : 1], hi[HALF ? SW16 : 1];
    auto load16 = [&](int tile) {
        int n, t0, lw0;
        window(tile, n, t0, lw0);
        const unsigned short *xn = (const unsigned short *)a.x + (int64_t)n * a.cin * a.L_in;
#pragma unroll
        for (int i = 0; i < (HALF ? SW16 : 1); ++i) lo[i] = hi[i] = 0;
        for_my_words(a, rows, [&](int i, int row, int col) {
            const int l = lw0 + col, c0 = 2 * row;
            if (l < 0 || l >= a.L_in) return;
            const unsigned short *p = xn + (int64_t)c0 * a.L_in + l;
#pragma unroll
            for (int j = 0; j < (HALF ? SW16 : 1); ++j)
                if (j == i) { /* a register array takes compile-time indices only */
                    if (c0 < a.cin) lo[j] = __ldg(p);
                    if (c0 + 1 < a.cin) hi[j] = __ldg(p + a.L_in);
                }
        });
    };
    auto store16 = [&](uint32_t *xs) {
        for_my_words(a, rows, [&](int i, int row, int col) {
#pragma unroll
            for (int j = 0; j < (HALF ? SW16 : 1); ++j)
                if (j == i) xs[row * a.XP + col] = lo[j] | hi[j] << 16;
        });
    };

    int tile = blockIdx.x;
    if (tile >= a.tiles) return;
    if (HALF) {
        load16(tile);
        store16(xs0);
        __syncthreads();
    } else {
        issue32(tile, xs0);
        cp_async_commit();
    }
    for (int it = 0; tile < a.tiles; ++it, tile += gridDim.x) {
        const int next = tile + gridDim.x;
        uint32_t *xs = HALF ? xs0 : xs0 + (it & 1) * xwords;
        if (HALF) {
            if (next < a.tiles) load16(next); /* in flight during the tile's math and stores */
        } else {
            if (next < a.tiles) issue32(next, xs0 + ((it + 1) & 1) * xwords);
            cp_async_commit();
            cp_async_wait<1>();
            if (MODE == TF32) /* round this thread's own words of the landed window */
                for_my_words(a, rows, [&](int, int row, int col) { xs[row * a.XP + col] = tf32_rn(xs[row * a.XP + col]); });
            __syncthreads();
        }
        int n, t0, lw0;
        window(tile, n, t0, lw0);

        /* The tile's GEMM: 64 channels x 128 positions x (C_in x K); tap k reads the window shifted by
         * (K-1-k)*m columns. */
        float acc[NT][4];
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[nt][e] = 0.f;
        {
            const uint32_t *xb = xs + tq * a.XP + wn * (BT / 2) + g;
            int k = 0, cbi = 0;
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) {
                if (ks < a.nks) {
                    const uint32_t *p = xb + cbi * 8 * a.XP + (a.K - 1 - k) * a.m;
#pragma unroll
                    for (int nt = 0; nt < NT; ++nt) {
                        uint32_t b[2] = {p[nt * 8], p[4 * a.XP + nt * 8]};
                        if (MODE == F32X3) {
                            /* b = big + small: big tf32-rounded, small exact in fp32 (the tensor cores
                             * truncate it to tf32: 2^-21 relative); the small*small term is dropped. */
                            uint32_t bs[2];
#pragma unroll
                            for (int e = 0; e < 2; ++e) {
                                const uint32_t big = tf32_rn(b[e]);
                                bs[e] = __float_as_uint(__uint_as_float(b[e]) - __uint_as_float(big));
                                b[e] = big;
                            }
                            mma_tf32(acc[nt], al[MODE == F32X3 ? ks : 0], b);
                            mma_tf32(acc[nt], af[ks], bs);
                            mma_tf32(acc[nt], af[ks], b);
                        } else if (MODE == TF32) {
                            mma_tf32(acc[nt], af[ks], b);
                        } else {
                            mma_16<MODE>(acc[nt], af[ks], b);
                        }
                    }
                    if (++cbi == a.cb) {
                        cbi = 0;
                        ++k;
                    }
                }
            }
        }
#pragma unroll
        for (int nt = 0; nt < NT; ++nt) {
            const int col = wn * (BT / 2) + nt * 8 + 2 * tq, row = wm * 16 + g;
            *(float2 *)(ys + row * YP + col) = make_float2(acc[nt][0], acc[nt][1]);
            *(float2 *)(ys + (row + 8) * YP + col) = make_float2(acc[nt][2], acc[nt][3]);
        }
        __syncthreads(); /* results complete; every warp is done with the window */
        if (HALF && next < a.tiles) store16(xs0);

        /* y rows: elements [s*t0, s*t0 + s*BT) of each, phase r from the results, the bias elsewhere.
         * Element j of the span is phase position (j - r) / s when j - r is a multiple of s. */
        const int span_lo = a.s * t0;
        const int span = min(a.s * BT, a.L_out - span_lo);
#pragma unroll
        for (int i = 0; i < BM / 8; ++i) {
            const int co = warp + 8 * i;
            if (co >= a.cout) break;
            const float b = bias_r[i];
            const float *yr = ys + co * YP;
            T *dst = (T *)a.y + ((int64_t)n * a.cout + co) * a.L_out + span_lo;
            auto value = [&](int j) {
                const int u = j - a.r;
                if (u < 0) return b;
                const int q = u / a.s;
                return q * a.s == u ? yr[q] + b : b;
            };
            /* Elements before the first 16-byte boundary, and after the last whole vector, one by one. */
            const int head = min(span, (int)(((16 - ((uintptr_t)dst & 15)) & 15) / sizeof(T)));
            const int nv = (span - head) / VE, tail0 = head + nv * VE;
            if (lane < head) dst[lane] = Fused<MODE>::to_out(value(lane));
            if (lane < span - tail0) dst[tail0 + lane] = Fused<MODE>::to_out(value(tail0 + lane));
            for (int v = lane; v < nv; v += 32) {
                const int j0 = head + v * VE;
                int u = j0 - a.r, q = u >= 0 ? u / a.s : -1, ph = u - q * a.s; /* u = q*s + ph, 0 <= ph < s */
                union {
                    uint4 u4;
                    T e[VE];
                } w;
#pragma unroll
                for (int e = 0; e < VE; ++e) {
                    w.e[e] = Fused<MODE>::to_out(ph == 0 ? yr[q] + b : b);
                    if (++ph == a.s) {
                        ph = 0;
                        ++q;
                    }
                }
                *(uint4 *)(dst + j0) = w.u4;
            }
        }
        __syncthreads(); /* results read; 16-bit: the next window stored */
    }
    if (!HALF) cp_async_wait<0>();
}

template <int MODE>
convt1d_status launch(const FusedArgs &a, size_t smem, cudaStream_t stream) {
    auto kern = fwd_phase_fused_kernel<MODE>;
    static size_t smem_set = 0; /* the largest dynamic shared memory allowed so far */
    static int per_sm = 0;
    static size_t per_sm_smem = 0;
    if (smem > smem_set) {
        if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return CONVT1D_ERROR_NOT_SUPPORTED;
        }
        smem_set = smem;
    }
    if (per_sm_smem != smem) {
        int b = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kern, NTH, smem) != cudaSuccess || b < 1) {
            (void)cudaGetLastError();
            return CONVT1D_ERROR_NOT_SUPPORTED;
        }
        per_sm = b;
        per_sm_smem = smem;
    }
    const int sms = convt1d_sm_count() > 0 ? convt1d_sm_count() : 132;
    const int grid = a.tiles < per_sm * sms ? a.tiles : per_sm * sms;
    kern<<<grid, NTH, smem, stream>>>(a);
    return convt1d_cuda_check("forward (fused one phase): launch");
}

} // namespace

convt1d_status convt1d_fwd_phase_fused(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                       void *y, cudaStream_t stream) {
    /* CONVT1D_FWD_FUSED=0 off, 1 on wherever it applies; unset: where measured to gain (below). */
    const char *ev = getenv("CONVT1D_FWD_FUSED");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    if (env == 0 || pr.dtype == CONVT1D_F64 || pr.w_adjoint || P.groups != 1 || P.out_channels > BM ||
        convt1d_sm_major() < 8)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    FusedArgs a;
    if (P.stride == 1) {
        a.s = 1, a.r = 0, a.pq = (int)P.padding, a.m = (int)P.dilation;
    } else {
        convt1d_problem q;
        int r = 0;
        if (!one_phase_problem(pr, &q, &r)) return CONVT1D_ERROR_NOT_SUPPORTED;
        a.s = (int)P.stride, a.r = r, a.pq = (int)q.p.padding, a.m = (int)q.p.dilation;
    }
    /* Stride 1 stays on the general kernels until measured here. */
    if (env < 0 && P.stride == 1) return CONVT1D_ERROR_NOT_SUPPORTED;
    const bool half = pr.dtype != CONVT1D_F32;
    const int64_t halo = (P.kernel_size - 1) * (int64_t)a.m;
    const int64_t cb = (P.in_channels + (half ? 15 : 7)) / (half ? 16 : 8);
    if (halo > HALO || cb * P.kernel_size > KS) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t tiles_per_n = (pr.out_length + a.s * (int64_t)BT - 1) / (a.s * (int64_t)BT);
    if (P.in_length + BT + HALO >= INT_MAX / 2 || pr.out_length + a.s * (int64_t)BT >= INT_MAX / 2 ||
        P.padding >= INT_MAX / 4 || P.batch * tiles_per_n >= INT_MAX / 2)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    a.x = x, a.w = w, a.bias = bias, a.y = y;
    a.cin = (int)P.in_channels, a.cout = (int)P.out_channels, a.K = (int)P.kernel_size;
    a.L_in = (int)P.in_length, a.L_out = (int)pr.out_length;
    a.cb = (int)cb, a.nks = (int)(cb * P.kernel_size);
    a.W = BT + (int)halo;
    a.XP = (a.W - 8 + 31) / 32 * 32 + 8;
    a.tiles_per_n = (int)tiles_per_n, a.tiles = (int)(P.batch * tiles_per_n);
    const int rows = a.cb * 8;
    if (half && rows * a.W > NTH * SW16) return CONVT1D_ERROR_NOT_SUPPORTED;
    const size_t smem = ((size_t)(half ? 1 : 2) * rows * a.XP + (size_t)BM * YP) * 4;
    switch (pr.dtype) {
    case CONVT1D_F16: return launch<F16>(a, smem, stream);
    case CONVT1D_BF16: return launch<BF16>(a, smem, stream);
    default: return pr.math == CONVT1D_MATH_STRICT_FP32 ? launch<F32X3>(a, smem, stream) : launch<TF32>(a, smem, stream);
    }
}
