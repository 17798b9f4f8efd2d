/* Tensor-core forward: polyphase implicit GEMM on mma.sync (sm_80 and later).
 *
 * For group g and stride phase r (t = o + p, r = t mod s, q = t div s) the output is a GEMM
 *   Y[co, q] = sum_{ci, j} W[ci, co, k_j] * X[ci, q - off_j]
 * over the taps k_j = k0 + j * (s/gcd) that reach phase r (off_j = off0 + j * (d/gcd)).
 * A block owns BM output channels x BQ consecutive q of one (n, g, r). Per chunk of input channels it
 * stages one input window (BQ + halo columns) and the weights of all taps of the phase in shared
 * memory; each tap is then a shifted view of the same window, so input is read once per block.
 *
 * Shared memory is kept in 32-bit "words": one fp32 value, or one pair of 16-bit channels (ci, ci+1)
 * as the m16n8k16 fragments want them. A chunk is 8 word rows (8 fp32 channels = one m16n8k8 step,
 * or 16 half channels = one m16n8k16 step), so fragment addressing is the same for every dtype;
 * only the mma instruction differs. Row strides are 8 (mod 32) words: fragment loads are
 * bank-conflict free for any tap shift.
 *
 * Weights are first repacked (pack_weights_kernel, tiny) into exactly the shared-memory image each
 * block needs per chunk: [g][r][co tile][chunk][tap slot][8 rows][BM], zero-padded, 16-bit pairs
 * already formed. The main kernel then streams them with 16-byte cp.async and no index math.
 * fp32 inputs stream with 4-byte cp.async (zero-filled outside the tensor) through a STAGES-deep
 * ring; 16-bit inputs go through registers one chunk ahead so that channel pairs can be packed.
 *
 * Modes: TF32 (cvt.rna to tf32), F32X3 (3xTF32 split, fp32-accurate: big*big + big*small +
 * small*big), F16 and BF16 (f32 accumulate, 16-bit output). */
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

namespace convt1d_tc {

enum Mode { TF32 = 0, F32X3 = 1, F16 = 2, BF16 = 3 };

constexpr int HALO_MAX = 32; /* widest tap spread (T-1)*(d/gcd) a block's window can absorb */

struct Args {
    const void *x;
    const uint32_t *wp; /* packed weights */
    const void *bias;
    void *y;
    int N, cin, cout, cin_g, cout_g, G;
    int L_in, L_out, K, s, p, d;
    int sg_k, sg_off; /* taps of one phase step by sg_k in k and by sg_off in input offset */
    int tmax;         /* taps of phase 0, the most any phase has: tap slots per packed chunk */
    int q_min;        /* floor(p / s): the first q of any phase */
    int q_tiles, co_tiles, nch;
    /* Phase merging (ps > 1): the launcher hands the kernel a stride-1 problem whose GEMM rows are the
     * (co, r) pairs of the real stride-ps problem, row m = co * ps + r (see merge_phases in fwd_tc.cu).
     * Then s = d = 1, K = tmax = P + 1 taps, cout_g = ocg * ps rows; pd, pK, pp are the real dilation,
     * kernel size and padding. Without merging ps = 1, ocg = cout_g, pK = K. */
    int ps, pd, pK, pp;
    int ocg; /* real output channels per group (the y and bias layout) */
    int xvec; /* input rows can be staged with 16-byte vectors: L_in a multiple of 16 bytes, x aligned */
    int w_adj; /* w is [G*ocg, cin_g, K] and tap k reads w[.., K-1-k] (convt1d_problem::w_adjoint) */
    /* Tiny problems: blocks build their weight words straight from w_raw (packed_word) instead of
     * streaming the pre-packed copy wp: no pack kernel, no scratch, one launch per call. */
    int wraw;
    const void *w_raw;
};

/* Row m of a merged problem is (co, r) = (m / ps, m % ps): tap slot j holds the weight k with
 * k*d = j*ps + r, which puts input q - j at output o = q*ps + r - p. -1: no such tap. */
__device__ __forceinline__ int merged_tap(const Args &a, int m, int j) {
    const int64_t kd = (int64_t)j * a.ps + m % a.ps;
    return kd % a.pd == 0 && kd / a.pd < a.pK ? (int)(kd / a.pd) : -1;
}

/* Taps of phase r: the first k with k*d = r (mod s), then every s/gcd(s,d). */
__device__ __forceinline__ void phase_taps(int r, const Args &a, int &k0, int &T, int &off0) {
    k0 = -1;
    const int lim = a.K < a.sg_k ? a.K : a.sg_k;
    for (int k = 0; k < lim; ++k)
        if ((int)(((int64_t)k * a.d) % a.s) == r) { k0 = k; break; }
    T = 0;
    off0 = 0;
    if (k0 >= 0) {
        T = (a.K - 1 - k0) / a.sg_k + 1;
        off0 = (int)(((int64_t)k0 * a.d - r) / a.s);
    }
}

template <int MODE> __device__ __forceinline__ uint32_t raw_bits(const void *p, int64_t idx) {
    if (MODE >= F16) return (uint32_t)__ldg((const unsigned short *)p + idx);
    return __float_as_uint(__ldg((const float *)p + idx));
}

/* Packed word (tap slot j, word row `row` of chunk c, GEMM row row_m) of group g, phase r: the
 * weight(s) it holds, 16-bit channel pairs formed, tf32-rounded in TF32 mode (the main loop then
 * converts only the input). k0, T: phase r's first tap and tap count (phase_taps), unused when merged. */
template <int MODE, int KR>
__device__ __forceinline__ uint32_t packed_word(const void *w, const Args &a, int g, int k0, int T, int c, int j,
                                                int row, int row_m) {
    constexpr bool HALF = MODE >= F16;
    constexpr int CPC = HALF ? 2 * KR : KR;
    int k = -1, co = row_m; /* GEMM row: co, or (co, r) when phases are merged */
    if (row_m < a.cout_g) {
        if (a.ps > 1) {
            k = merged_tap(a, row_m, j);
            co = row_m / a.ps;
        } else if (j < T) {
            k = k0 + j * a.sg_k;
        }
    }
    uint32_t v = 0;
    if (k >= 0) {
#pragma unroll
        for (int h = 0; h < (HALF ? 2 : 1); ++h) {
            const int ci = c * CPC + row * (HALF ? 2 : 1) + h;
            if (ci < a.cin_g)
                v |= raw_bits<MODE>(w, a.w_adj ? (((int64_t)g * a.ocg + co) * a.cin_g + ci) * a.pK + (a.pK - 1 - k)
                                               : (((int64_t)g * a.cin_g + ci) * a.ocg + co) * a.pK + k)
                     << (16 * h);
        }
    }
    if (MODE == TF32) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(v) : "f"(__uint_as_float(v)));
    return v;
}

/* One thread per packed word: [g][r][co tile][chunk][tap slot][row][BM]. */
template <int MODE, int BM, int KR>
__global__ void pack_weights_kernel(const void *w, Args a, int64_t total) {
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    int64_t t = idx;
    const int m = (int)(t % BM); t /= BM;
    const int row = (int)(t % KR); t /= KR;
    const int j = (int)(t % a.tmax); t /= a.tmax;
    const int c = (int)(t % a.nch); t /= a.nch;
    const int cot = (int)(t % a.co_tiles); t /= a.co_tiles;
    const int r = (int)(t % a.s);
    const int g = (int)(t / a.s);
    int k0 = -1, T = 0, off0 = 0;
    if (a.ps == 1) phase_taps(r, a, k0, T, off0);
    ((uint32_t *)a.wp)[idx] = packed_word<MODE, KR>(w, a, g, k0, T, c, j, row, cot * BM + m);
}

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp_async4(uint32_t dst, const void *src, bool ok) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst), "l"(src), "r"(ok ? 4 : 0));
}
__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src));
}
/* 16 bytes, or 16 zero bytes when !ok (src-size 0). */
__device__ __forceinline__ void cp_async16z(uint32_t dst, const void *src, bool ok) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(ok ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;"); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }

/* TF32 rounding of fp32 bits as an integer add (round half away from zero, like cvt.rna; cvt.rna.tf32 is a
 * multi-instruction sequence on sm_90). */
__device__ __forceinline__ uint32_t tf32_rn(uint32_t v) { return (v + 0x1000u) & 0xffffe000u; }

__device__ __forceinline__ uint32_t to_tf32(uint32_t v) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(__uint_as_float(v)));
    return r;
}

/* One A-fragment word of the fused one-phase kernels (fwd_phase_fused.cu, bwd_input_phase_fused.cu; groups 1,
 * w = [C_in][C_out][K]): the weight(s) of tap k at GEMM row `row` and word row `wr`, the rows being output
 * channels and the reduction input channels (forward: ROWS_CO) or the other way round (grad_input). 16-bit
 * words pair two reduction channels; zero outside the tensor. TF32: rounded; F32X3: the big part, the small
 * one (tf32 too) in `small`. */
template <int MODE, bool ROWS_CO>
__device__ __forceinline__ uint32_t fused_weight_word(const void *w, int row, int wr, int k, int cin, int cout, int K,
                                                      uint32_t &small) {
    constexpr bool HALF = MODE >= F16;
    uint32_t v = 0;
    small = 0;
    if (row < (ROWS_CO ? cout : cin)) {
#pragma unroll
        for (int h = 0; h < (HALF ? 2 : 1); ++h) {
            const int red = HALF ? 2 * wr + h : wr; /* reduction channel */
            const int ci = ROWS_CO ? red : row, co = ROWS_CO ? row : red;
            if (red < (ROWS_CO ? cin : cout)) v |= raw_bits<MODE>(w, ((int64_t)ci * cout + co) * K + k) << (16 * h);
        }
    }
    if (MODE == TF32) v = to_tf32(v);
    if (MODE == F32X3) { /* v = big + small, both tf32 */
        const uint32_t big = to_tf32(v);
        small = to_tf32(__float_as_uint(__uint_as_float(v) - __uint_as_float(big)));
        v = big;
    }
    return v;
}

__device__ __forceinline__ void mma_tf32(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <int MODE>
__device__ __forceinline__ void mma_16(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    if (MODE == F16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* One k-step of the fused one-phase kernels on one n8 tile. b: raw window words (fp32 bits, or 16-bit channel
 * pairs); ROUND_B: fp32 words not yet tf32-rounded (the forward rounds its window once in shared memory).
 * F32X3: b = big + small, big tf32-rounded, small exact in fp32 (the tensor cores truncate it to tf32: 2^-21
 * relative); three products with the weights' big / small parts, the small*small term dropped. */
template <int MODE, bool ROUND_B>
__device__ __forceinline__ void fused_mma(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&a_small)[4],
                                          uint32_t (&b)[2]) {
    if (MODE == F32X3) {
        uint32_t bs[2];
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const uint32_t big = tf32_rn(b[e]);
            bs[e] = __float_as_uint(__uint_as_float(b[e]) - __uint_as_float(big));
            b[e] = big;
        }
        mma_tf32(c, a_small, b);
        mma_tf32(c, a, bs);
        mma_tf32(c, a, b);
    } else if (MODE == TF32) {
        if (ROUND_B) b[0] = tf32_rn(b[0]), b[1] = tf32_rn(b[1]);
        mma_tf32(c, a, b);
    } else {
        mma_16<MODE>(c, a, b);
    }
}

template <int MODE> __device__ __forceinline__ void store_out(void *y, int64_t idx, float v) {
    if (MODE == F16)
        ((__half *)y)[idx] = __float2half_rn(v);
    else if (MODE == BF16)
        ((__nv_bfloat16 *)y)[idx] = __float2bfloat16_rn(v);
    else
        ((float *)y)[idx] = v;
}
/* Two adjacent outputs with one store; the address must be aligned to two elements. */
template <int MODE> __device__ __forceinline__ void store_out2(void *y, int64_t idx, float v0, float v1) {
    if (MODE == F16)
        *(__half2 *)((__half *)y + idx) = __floats2half2_rn(v0, v1);
    else if (MODE == BF16)
        *(__nv_bfloat162 *)((__nv_bfloat16 *)y + idx) = __floats2bfloat162_rn(v0, v1);
    else
        *(float2 *)((float *)y + idx) = make_float2(v0, v1);
}
template <int MODE> __device__ __forceinline__ float load_bias(const void *b, int64_t idx) {
    if (MODE == F16) return __half2float(((const __half *)b)[idx]);
    if (MODE == BF16) return __bfloat162float(((const __nv_bfloat16 *)b)[idx]);
    return ((const float *)b)[idx];
}

/* One chunk of the main loop: every tap and k-step of the staged window (xs0, row stride XS) and
 * weights (ws0: [tap][KR rows][WS]) into the warp's accumulators. */
template <int MODE, int MT, int NT, int KR, int XS, int WS, bool PF>
__device__ __forceinline__ void chunk_mma(float (&acc)[MT][NT][4], const uint32_t *xs0, const uint32_t *ws0, int T,
                                          int sg_off, int wm0, int wn0, int gq, int tq) {

    /* Strict mode: the tensor cores truncate when they add into the accumulator, a bias that
     * grows with the reduction length (2e-5 at 3072 terms); each chunk therefore sums into
     * fresh registers that are added to acc with IEEE round-to-nearest. */
    float tmp[MODE == F32X3 ? MT : 1][MODE == F32X3 ? NT : 1][4];
    if (MODE == F32X3) {
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) tmp[MODE == F32X3 ? i : 0][MODE == F32X3 ? j : 0][e] = 0.f;
    }
    /* A step is one tap j and one 8-word-row slice ks of the chunk. */
    constexpr int KSN = KR / 8;
    const int steps = T * KSN;
    auto load_frag = [&](int step, uint32_t(&af)[MT][4], uint32_t(&bf)[NT][2]) {
        const int j = step / KSN, ks = step % KSN;
        const uint32_t *wsj = ws0 + (j * KR + ks * 8) * WS + wm0 + gq;
        const uint32_t *xsj = xs0 + ks * 8 * XS + (T - 1 - j) * sg_off + wn0 + gq;
#pragma unroll
        for (int mt = 0; mt < MT; ++mt) {
            af[mt][0] = wsj[tq * WS + mt * 16];
            af[mt][1] = wsj[tq * WS + mt * 16 + 8];
            af[mt][2] = wsj[(tq + 4) * WS + mt * 16];
            af[mt][3] = wsj[(tq + 4) * WS + mt * 16 + 8];
        }
#pragma unroll
        for (int nt = 0; nt < NT; ++nt) {
            bf[nt][0] = xsj[tq * XS + nt * 8];
            bf[nt][1] = xsj[(tq + 4) * XS + nt * 8];
        }
    };
    auto mma_frag = [&](uint32_t(&af)[MT][4], uint32_t(&bf)[NT][2]) {
        if (MODE == TF32) { /* weights arrive tf32-rounded from the pack kernel */
#pragma unroll
            for (int nt = 0; nt < NT; ++nt)
#pragma unroll
                for (int e = 0; e < 2; ++e) bf[nt][e] = to_tf32(bf[nt][e]);
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int nt = 0; nt < NT; ++nt) mma_tf32(acc[mt][nt], af[mt], bf[nt]);
        } else if (MODE == F32X3) {
            /* v = big + small, both tf32; the small*small term (2^-22 relative) is dropped. */
            uint32_t as[MT][4], bs[NT][2];
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const uint32_t big = to_tf32(af[mt][e]);
                    as[mt][e] = to_tf32(__float_as_uint(__uint_as_float(af[mt][e]) - __uint_as_float(big)));
                    af[mt][e] = big;
                }
#pragma unroll
            for (int nt = 0; nt < NT; ++nt)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const uint32_t big = to_tf32(bf[nt][e]);
                    bs[nt][e] = to_tf32(__float_as_uint(__uint_as_float(bf[nt][e]) - __uint_as_float(big)));
                    bf[nt][e] = big;
                }
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int nt = 0; nt < NT; ++nt) {
                    float(&t4)[4] = tmp[MODE == F32X3 ? mt : 0][MODE == F32X3 ? nt : 0];
                    mma_tf32(t4, as[mt], bf[nt]);
                    mma_tf32(t4, af[mt], bs[nt]);
                    mma_tf32(t4, af[mt], bf[nt]);
                }
        } else {
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int nt = 0; nt < NT; ++nt) mma_16<MODE>(acc[mt][nt], af[mt], bf[nt]);
        }
    };
    if (PF) {
        /* Fragments double-buffered in registers: step k+1's shared-memory loads are in
         * flight while the tensor cores work on step k (the tap loop's trip count is only
         * known at run time, so the compiler cannot do this itself). */
        uint32_t a0[MT][4], b0[NT][2], a1[MT][4], b1[NT][2];
        load_frag(0, a0, b0);
        int st = 0;
        for (; st + 1 < steps; st += 2) {
            load_frag(st + 1, a1, b1);
            mma_frag(a0, b0);
            if (st + 2 < steps) load_frag(st + 2, a0, b0);
            mma_frag(a1, b1);
        }
        if (st < steps) mma_frag(a0, b0);
    } else {
#pragma unroll 1
        for (int st = 0; st < steps; ++st) {
            uint32_t af[MT][4], bf[NT][2];
            load_frag(st, af, bf);
            mma_frag(af, bf);
        }
    }
    if (MODE == F32X3) {
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][j][e] += tmp[MODE == F32X3 ? i : 0][MODE == F32X3 ? j : 0][e];
    }
}

/* Shared memory words of the pipeline ring (the staged-output tile comes on top, sized at run time). */
template <int BM, int BQ, int KR, int TMAX, int STAGES> constexpr int ring_words() {
    return STAGES * KR * (BQ + HALO_MAX + 8) + STAGES * TMAX * KR * (BM + 8);
}

/* MODE: arithmetic; BM x BQ: block tile (output channels x q); WM x WN: warps; KR: word rows per
 * chunk (KR fp32 channels or 2*KR half channels); TMAX: tap slots; STAGES: fp32 ring depth;
 * SOUT: the block computes every phase of its q range into a shared-memory output tile and writes
 * contiguous 16-byte vectors (else it owns one phase and stores its fragments, s apart);
 * PF: fragment double-buffering across k-steps. */
template <int MODE, int BM, int BQ, int WM, int WN, int KR, int TMAX, int STAGES, int MINB, bool SOUT, bool PF>
__global__ void __launch_bounds__(WM *WN * 32, MINB) fwd_tc_kernel(const Args a) {
    constexpr int NTH = WM * WN * 32;
    constexpr int NW = WM * WN;
    constexpr int WTM = BM / WM, WTN = BQ / WN;
    constexpr int MT = WTM / 16, NT = WTN / 8;
    constexpr bool HALF = MODE >= F16;
    constexpr int CPC = HALF ? 2 * KR : KR; /* input channels per chunk */
    constexpr int XCOLS = BQ + HALO_MAX;    /* widest window, a multiple of 32 */
    constexpr int XS = XCOLS + 8;           /* smem row stride, 8 mod 32 */
    constexpr int WS = BM + 8;              /* smem row stride, 8 mod 32 (BM a multiple of 32) or 24 (BM 16) */
    constexpr int XROWS = KR / NW > 0 ? KR / NW : 1; /* window rows one warp stages */
    constexpr int XC = XCOLS / 32;
    constexpr int XSTAGE = KR * XS, WSTAGE = TMAX * KR * WS;
    /* Vector staging of the input window: 16 bytes = VE values per load, NV vectors per window row,
     * XVPT vectors per thread (16-bit values go through registers to be paired). */
    constexpr int VE = HALF ? 8 : 4, NV = XCOLS / VE, XVPT = (KR * NV + NTH - 1) / NTH;
    constexpr int XRW = XROWS * XC * 2 > XVPT * 8 ? XROWS * XC * 2 : XVPT * 8; /* staging registers */
    static_assert(MT >= 1 && NT >= 1 && WTM % 16 == 0 && WTN % 8 == 0, "tile");
    static_assert(KR % 8 == 0 && (NW <= KR ? KR % NW == 0 : NW % KR == 0), "warps vs rows");
    static_assert(XCOLS % 32 == 0 && BM % 16 == 0, "window");
    static_assert(!HALF || STAGES == 2, "16-bit inputs stage through registers, one chunk ahead");

    extern __shared__ __align__(16) uint32_t smem[];
    uint32_t *Xs = smem;                   /* [STAGES][KR][XS] */
    uint32_t *Ws = smem + STAGES * XSTAGE; /* [STAGES][TMAX][KR][WS] */
    float *Os = (float *)(Ws + STAGES * WSTAGE); /* SOUT: [BM][BQ*s + 4] */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int gq = lane >> 2, tq = lane & 3;
    const int wm0 = (warp / WN) * WTM, wn0 = (warp % WN) * WTN;

    /* Block -> (co tile, [phase], q tile, n, g); co tile and phase vary fastest so that the blocks
     * sharing an input window run together and the window comes from L2 after the first. */
    int bid = blockIdx.x;
    const int cot = bid % a.co_tiles; bid /= a.co_tiles;
    int r_fixed = 0;
    if (!SOUT) { r_fixed = bid % a.s; bid /= a.s; }
    const int qt = bid % a.q_tiles; bid /= a.q_tiles;
    const int n = bid % a.N;
    const int g = bid / a.N;
    const int co0 = cot * BM;
    const int qa = a.q_min + qt * BQ;
    const int OS = BQ * a.s + 4;

    const char *xblk = (const char *)a.x + (((int64_t)n * a.cin + (int64_t)g * a.cin_g) * a.L_in) * (HALF ? 2 : 4);
    const int64_t ybase = ((int64_t)n * a.cout + (int64_t)g * a.ocg) * a.L_out;
    uint32_t xr[HALF ? XRW : 1]; /* 16-bit path only: the next chunk's window, in flight */

    /* SOUT: every phase in turn; otherwise exactly one pass (written so the compiler sees it). */
    for (int r = SOUT ? 0 : r_fixed, pass = 0; SOUT ? r < a.s : pass < 1; ++r, ++pass) {
        int k0, T, off0;
        phase_taps(r, a, k0, T, off0);
        int ib = qa - off0 - (T - 1) * a.sg_off; /* input index of window column 0 */
        const int win = BQ + (T > 0 ? (T - 1) * a.sg_off : 0);
        /* 16-byte staging: the window starts at the aligned index below ib and the fragment reads
         * skip xshift columns, when the widened window still fits the XCOLS columns. */
        const int xshift = ib - (ib & ~(VE - 1));
        const bool xv = a.xvec && xshift + win <= XCOLS;
        if (xv) ib -= xshift;
        const int xoff = xv ? xshift : 0;
        const int nch = T > 0 ? a.nch : 0;
        const uint32_t *wblk =
            a.wraw ? nullptr : a.wp + ((((int64_t)g * a.s + r) * a.co_tiles + cot) * a.nch) * (int64_t)a.tmax * KR * BM;
        const int wvecs = T * KR * BM / 4; /* 16-byte vectors of one chunk's weights */

        float acc[MT][NT][4];
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

        /* Weights of chunk c -> stage st (cp.async, 16 bytes each; or built from w_raw with plain
         * loads and stores when wraw: made visible by the same barrier as the copies). */
        auto issue_w = [&](int c, int st) {
            uint32_t *dst = Ws + st * WSTAGE;
            if (a.wraw) {
                for (int v = tid; v < T * KR * BM; v += NTH) {
                    const int m = v % BM, jr = v / BM; /* jr = j * KR + row */
                    dst[jr * WS + m] = packed_word<MODE, KR>(a.w_raw, a, g, k0, T, c, jr / KR, jr % KR, co0 + m);
                }
                return;
            }
            const uint32_t *src = wblk + (int64_t)c * a.tmax * KR * BM;
            for (int v = tid; v < wvecs; v += NTH) {
                const int m4 = v % (BM / 4), jr = v / (BM / 4); /* jr = j * KR + row */
                cp_async16(smem_u32(dst + jr * WS + m4 * 4), src + v * 4);
            }
        };
        /* Vector variants: one 16-byte piece per (row, vector) over all threads; rows and vectors
         * past the tensor or the window are zero-filled (L_in is a multiple of VE here, so a vector
         * is either wholly inside the row or wholly outside). */
        auto issue_x32v = [&](int c, int st) {
            uint32_t *dst = Xs + st * XSTAGE;
            for (int idx = tid; idx < KR * NV; idx += NTH) {
                const int row = idx / NV, v = idx % NV;
                const int ci = c * CPC + row, i = ib + v * VE;
                const bool ok = ci < a.cin_g && v * VE < win + xshift && i >= 0 && i < a.L_in;
                const float *src = (const float *)xblk + (int64_t)ci * a.L_in + i;
                cp_async16z(smem_u32(dst + row * XS + v * VE), ok ? (const void *)src : a.x, ok);
            }
        };
        auto load_x16v = [&](int c) {
#pragma unroll
            for (int u = 0; u < XVPT; ++u) {
                const int idx = tid + u * NTH;
                const int row = idx / NV, v = idx % NV, i = ib + v * VE;
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int ci = c * CPC + 2 * row + h;
                    const bool ok = idx < KR * NV && ci < a.cin_g && v * VE < win + xshift && i >= 0 && i < a.L_in;
                    uint4 q4 = make_uint4(0u, 0u, 0u, 0u);
                    if (ok) q4 = __ldg((const uint4 *)((const unsigned short *)xblk + (int64_t)ci * a.L_in + i));
                    xr[HALF ? u * 8 + h * 4 + 0 : 0] = q4.x;
                    xr[HALF ? u * 8 + h * 4 + 1 : 0] = q4.y;
                    xr[HALF ? u * 8 + h * 4 + 2 : 0] = q4.z;
                    xr[HALF ? u * 8 + h * 4 + 3 : 0] = q4.w;
                }
            }
        };
        auto store_x16v = [&](int st) {
            uint32_t *dst = Xs + st * XSTAGE;
#pragma unroll
            for (int u = 0; u < XVPT; ++u) {
                const int idx = tid + u * NTH;
                if (idx >= KR * NV) break;
                const int row = idx / NV, v = idx % NV;
                uint32_t wd[8]; /* word e = (channel 2row, channel 2row+1) at column v*8 + e */
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const uint32_t lo = xr[HALF ? u * 8 + e : 0], hi = xr[HALF ? u * 8 + 4 + e : 0];
                    wd[2 * e] = __byte_perm(lo, hi, 0x5410);
                    wd[2 * e + 1] = __byte_perm(lo, hi, 0x7632);
                }
                uint4 *d4 = (uint4 *)(dst + row * XS + v * VE);
                d4[0] = make_uint4(wd[0], wd[1], wd[2], wd[3]);
                d4[1] = make_uint4(wd[4], wd[5], wd[6], wd[7]);
            }
        };
        /* fp32 window of chunk c -> stage st (cp.async, 4 bytes each, zero-filled outside). */
        auto issue_x32 = [&](int c, int st) {
            if (xv) { issue_x32v(c, st); return; }
            if (NW > KR && warp >= KR) return;
            uint32_t *dst = Xs + st * XSTAGE;
#pragma unroll
            for (int rr = 0; rr < XROWS; ++rr) {
                const int row = (NW >= KR) ? (warp % KR) : warp * XROWS + rr;
                const int ci = c * CPC + row;
                const float *src = (const float *)xblk + (int64_t)ci * a.L_in + ib;
                const bool rok = ci < a.cin_g;
#pragma unroll
                for (int cc = 0; cc < XC; ++cc) {
                    const int col = lane + 32 * cc;
                    const int i = ib + col;
                    const bool ok = rok && col < win && i >= 0 && i < a.L_in;
                    cp_async4(smem_u32(dst + row * XS + col), ok ? (const void *)(src + col) : a.x, ok);
                }
            }
        };
        auto load_x16 = [&](int c) {
            if (xv) { load_x16v(c); return; }
#pragma unroll
            for (int rr = 0; rr < XROWS; ++rr) {
                const int row = (NW >= KR) ? (warp % KR) : warp * XROWS + rr;
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int ci = c * CPC + 2 * row + h;
                    const unsigned short *src = (const unsigned short *)xblk + (int64_t)ci * a.L_in + ib;
#pragma unroll
                    for (int cc = 0; cc < XC; ++cc) {
                        const int col = lane + 32 * cc;
                        const int i = ib + col;
                        const bool ok = ci < a.cin_g && col < win && i >= 0 && i < a.L_in;
                        xr[HALF ? (rr * XC + cc) * 2 + h : 0] = ok ? (uint32_t)__ldg(src + col) : 0u;
                    }
                }
            }
        };
        auto store_x16 = [&](int st) {
            if (xv) { store_x16v(st); return; }
            if (NW > KR && warp >= KR) return;
            uint32_t *dst = Xs + st * XSTAGE;
#pragma unroll
            for (int rr = 0; rr < XROWS; ++rr) {
                const int row = (NW >= KR) ? (warp % KR) : warp * XROWS + rr;
#pragma unroll
                for (int cc = 0; cc < XC; ++cc)
                    dst[row * XS + lane + 32 * cc] =
                        xr[HALF ? (rr * XC + cc) * 2 : 0] | (xr[HALF ? (rr * XC + cc) * 2 + 1 : 0] << 16);
            }
        };
        auto compute_chunk = [&](int st) {
            chunk_mma<MODE, MT, NT, KR, XS, WS, PF>(acc, Xs + st * XSTAGE + xoff, Ws + st * WSTAGE, T, a.sg_off, wm0, wn0,
                                                    gq, tq);
        };

        if (nch > 0) {
            if (SOUT) __syncthreads(); /* the previous phase's last chunk may still be read */
            if (!HALF) {
                /* Ring of STAGES buffers: chunk c lives in stage c % STAGES. One commit group per
                 * chunk (empty past the end) keeps wait_group's count uniform. */
#pragma unroll
                for (int st = 0; st < STAGES - 1; ++st) {
                    if (st < nch) {
                        issue_w(st, st);
                        issue_x32(st, st);
                    }
                    cp_async_commit();
                }
                for (int c = 0; c < nch; ++c) {
                    cp_async_wait<STAGES - 2>();
                    __syncthreads(); /* chunk c visible to all; everyone is past chunk c-1 */
                    const int cn = c + STAGES - 1;
                    if (cn < nch) {
                        issue_w(cn, cn % STAGES);
                        issue_x32(cn, cn % STAGES);
                    }
                    cp_async_commit();
                    compute_chunk(c % STAGES);
                }
            } else {
                issue_w(0, 0);
                cp_async_commit();
                load_x16(0);
                store_x16(0);
                for (int c = 0; c < nch; ++c) {
                    cp_async_wait<0>();
                    __syncthreads();
                    const bool more = c + 1 < nch;
                    if (more) {
                        issue_w(c + 1, (c + 1) & 1);
                        cp_async_commit();
                        load_x16(c + 1); /* in flight while the tensor cores work on chunk c */
                    }
                    compute_chunk(c & 1);
                    if (more) store_x16((c + 1) & 1);
                }
            }
        }

        if (SOUT) {
            /* Phase r's results go to columns nq*s + r of the tile: the phases interleave there. */
#pragma unroll
            for (int mt = 0; mt < MT; ++mt)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int m = wm0 + mt * 16 + gq + 8 * h;
#pragma unroll
                    for (int nt = 0; nt < NT; ++nt) {
                        const int nq = wn0 + nt * 8 + 2 * tq;
                        Os[m * OS + nq * a.s + r] = acc[mt][nt][2 * h];
                        Os[m * OS + (nq + 1) * a.s + r] = acc[mt][nt][2 * h + 1];
                    }
                }
        } else {
        /* Direct epilogue: bias, convert, store. Phase r's outputs sit s apart; with s == 1 two
         * adjacent accumulators go out as one 8-byte (fp32) or 4-byte (16-bit) store when aligned.
         * Merged phases: row m is (co, r) and the stride is ps; the 8 rows of a fragment are 8
         * consecutive (co, r), so with ps = 8 a warp's store covers whole 32-byte sectors. */
        const int os = a.ps > 1 ? a.ps : a.s, op = a.ps > 1 ? a.pp : a.p;
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int m = co0 + wm0 + mt * 16 + gq + 8 * h;
                if (m >= a.cout_g) continue;
                const int co = a.ps > 1 ? m / a.ps : m;
                const int rr = a.ps > 1 ? m % a.ps : r;
                const float bv = a.bias ? load_bias<MODE>(a.bias, (int64_t)g * a.ocg + co) : 0.f;
                const int64_t yrow = ybase + (int64_t)co * a.L_out;
#pragma unroll
                for (int nt = 0; nt < NT; ++nt) {
                    const int q = qa + wn0 + nt * 8 + 2 * tq;
                    const int64_t o = (int64_t)q * os + rr - op;
                    const float v0 = acc[mt][nt][2 * h] + bv, v1 = acc[mt][nt][2 * h + 1] + bv;
                    if (os == 1 && o >= 0 && o + 1 < a.L_out &&
                        (((uintptr_t)a.y + (uintptr_t)(yrow + o) * (HALF ? 2 : 4)) & (HALF ? 3 : 7)) == 0) {
                        store_out2<MODE>(a.y, yrow + o, v0, v1);
                    } else {
                        if (o >= 0 && o < a.L_out) store_out<MODE>(a.y, yrow + o, v0);
                        const int64_t o1 = o + os;
                        if (o1 >= 0 && o1 < a.L_out) store_out<MODE>(a.y, yrow + o1, v1);
                    }
                }
            }
        }
    }

    if (SOUT) {
        /* Tile row m covers outputs o = qa*s - p + [0, BQ*s): one warp per row, 16-byte stores
         * once the row's global address is aligned (scalar head and tail). */
        __syncthreads();
        constexpr int ES = HALF ? 2 : 4, VEC = 16 / ES;
        const int wcols = BQ * a.s;
        const int64_t oA = (int64_t)qa * a.s - a.p;
        for (int m = warp; m < BM; m += NW) {
            const int co = co0 + m;
            if (co >= a.cout_g) break;
            const float bv = a.bias ? load_bias<MODE>(a.bias, (int64_t)g * a.ocg + co) : 0.f;
            const int64_t yrow = ybase + (int64_t)co * a.L_out;
            const float *orow = Os + m * OS;
            const uintptr_t addr = (uintptr_t)a.y + (uintptr_t)((yrow + oA) * ES);
            int head = (int)(((16 - (addr & 15)) & 15) / ES);
            if (head > wcols) head = wcols;
            const int nvec = (wcols - head) / VEC;
            const int tail0 = head + nvec * VEC;
            for (int c = lane; c < head; c += 32) {
                const int64_t o = oA + c;
                if (o >= 0 && o < a.L_out) store_out<MODE>(a.y, yrow + o, orow[c] + bv);
            }
            for (int v = lane; v < nvec; v += 32) {
                const int c = head + v * VEC;
                const int64_t o = oA + c;
                if (o >= 0 && o + VEC <= a.L_out) {
                    float f[VEC];
#pragma unroll
                    for (int e = 0; e < VEC; ++e) f[e] = orow[c + e] + bv;
                    uint4 u;
                    if (HALF) {
                        uint32_t wv[4];
#pragma unroll
                        for (int e = 0; e < 4; ++e) {
                            if (MODE == F16) {
                                __half2 h2 = __floats2half2_rn(f[2 * e], f[2 * e + 1]);
                                wv[e] = *(uint32_t *)&h2;
                            } else {
                                __nv_bfloat162 h2 = __floats2bfloat162_rn(f[2 * e], f[2 * e + 1]);
                                wv[e] = *(uint32_t *)&h2;
                            }
                        }
                        u = make_uint4(wv[0], wv[1], wv[2], wv[3]);
                    } else {
                        u = make_uint4(__float_as_uint(f[0]), __float_as_uint(f[1]), __float_as_uint(f[2 % VEC]),
                                       __float_as_uint(f[3 % VEC])); /* VEC is 4 here */
                    }
                    *(uint4 *)((char *)a.y + (yrow + o) * ES) = u;
                } else {
#pragma unroll
                    for (int e = 0; e < VEC; ++e)
                        if (o + e >= 0 && o + e < a.L_out) store_out<MODE>(a.y, yrow + o + e, orow[c + e] + bv);
                }
            }
            for (int c = tail0 + lane; c < wcols; c += 32) {
                const int64_t o = oA + c;
                if (o >= 0 && o < a.L_out) store_out<MODE>(a.y, yrow + o, orow[c] + bv);
            }
        }
    }
}

}  // namespace convt1d_tc
