/* Tensor-core backward kernels: grad_input and grad_weight of ConvTranspose1d (mma.sync).
 *
 * grad_x[n, g*Cin_g+ci, i] = sum_{co,k} w[g*Cin_g+ci, co, k] * gy[n, g*Cout_g+co, i*s + k*d - p]
 *   per group an implicit GEMM: M = Cin_g, N = input positions, reduction = Cout_g x K. A block owns
 *   BM input channels x 128 positions of one batch row; per chunk of output channels it stages the gy
 *   window those positions touch (span 127*s + d*(K-1) + 1) once, and every tap k reads it as the strided
 *   view pos*s + k*d, so no im2col copy exists anywhere.
 * grad_w[g*Cin_g+ci, co, k] = sum_{n,i} x[n, g*Cin_g+ci, i] * gy[n, g*Cout_g+co, i*s + k*d - p]
 *   GEMM M = Cin_g, N = Cout_g*K (columns (co,k), grad_w's own row layout), reduction over (n, i). The
 *   reduction is cut into a fixed number of splits (independent of the device); each block writes its
 *   fp32 partial tile to the workspace and a second kernel sums the splits in order: bitwise
 *   deterministic, no atomics. With one split the block writes grad_w directly.
 *
 * Everything is staged as 32-bit "words" in shared memory so one fragment loader serves every dtype:
 *   f32 (TF32 mode): a word is one value rounded to tf32 (cvt.rna, at staging or at fragment load);
 *   f32 (STRICT):    a word is the raw float, split into big + small tf32 at fragment load (3xTF32);
 *   f16 / bf16:      a word packs two consecutive reduction elements (low half = lower index).
 * With 8 words per mma k-step, m16n8k8.tf32 and m16n8k16.{f16,bf16} then share the fragment layout
 * A word r -> (row g + 8*(r&1), col t + 4*(r>>1)), B word r -> (k t + 4r, n g), g = lane/4, t = lane%4.
 *
 * Staging is double-buffered with cp.async when two stages fit in shared memory (chunk i+1 streams in
 * while chunk i is multiplied): f32 words stay raw and TF32 rounding happens at fragment load. 16-bit
 * grad_weight pipelines too: gy lands as raw halves (4-byte copies from the even element at or below
 * each row's window start) and weight_repack pairs them into words in a third buffer, bitwise the words
 * of the synchronous path (kept for 16-bit grad_input, where it measured faster, and for grad_weight
 * without 16-byte x rows or when two stages do not fit).
 * Block tiles: BM (32/64/128 input channels) x 128, warps of 32 x 32/64, 4 or 8 warps.
 *
 * All boundaries are predicated (zero-filled at staging, masked at the store); global offsets are int64.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <string.h>

#include "kernels.cuh"

namespace {
constexpr int kThreads = 128; /* the split-sum kernel; the GEMM kernels take theirs from warp_layout */
}

#ifdef CONVT1D_BWD_EMU
/* Host emulation build (dev/cuda/bwd): runs these kernels on the CPU, one coroutine per thread. */
#include "bwd_tc_emu.h"
#define CT_SYNC() emu::sync_threads()
#define CT_DYN_SMEM(name) uint32_t *name = reinterpret_cast<uint32_t *>(emu::dyn_smem())
#define CT_LAUNCH(kern, grid, threads, smem, stream, ...) emu::launch(kern, grid, threads, smem, __VA_ARGS__)
#else
#define CT_SYNC() __syncthreads()
#define CT_DYN_SMEM(name)                                                                          \
    extern __shared__ __align__(16) uint32_t ct_smem_words[];                                      \
    uint32_t *name = ct_smem_words
#define CT_LAUNCH(kern, grid, threads, smem, stream, ...) kern<<<grid, threads, smem, stream>>>(__VA_ARGS__)
#endif

namespace {

enum { MODE_TF32 = 0, MODE_3XTF32 = 1, MODE_F16 = 2, MODE_BF16 = 3 };

template <int MODE> struct mode_traits;
template <> struct mode_traits<MODE_TF32> { typedef float T; static constexpr int EPW = 1; };
template <> struct mode_traits<MODE_3XTF32> { typedef float T; static constexpr int EPW = 1; };
template <> struct mode_traits<MODE_F16> { typedef __half T; static constexpr int EPW = 2; };
template <> struct mode_traits<MODE_BF16> { typedef __nv_bfloat16 T; static constexpr int EPW = 2; };

constexpr int kBN = 128;           /* grad_input: positions per block; grad_weight: (co,k) columns */
constexpr int kCStride = kBN + 4;  /* epilogue staging row (floats) */
constexpr int kRW = 32;            /* grad_weight: reduction words per staged tile */
constexpr int kXRow = kRW + 4;     /* x tile row stride in words: conflict-free A fragments */
constexpr int kTargetBlocks = 1024;/* grad_weight: blocks to aim for when choosing splits (fixed: determinism) */
constexpr int kMinCinG = 8;        /* below this the M dimension wastes most of an mma; direct kernel wins */
constexpr size_t kMaxSmem = 99 * 1024; /* the opt-in limit of sm_86/sm_89 too (PTX JIT) */
constexpr size_t kMaxWorkspace = (size_t)512 << 20;

__device__ __forceinline__ uint32_t f2u(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
__device__ __forceinline__ float u2f(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* n / d for 0 <= n < 2^31 without a hardware divide (Granlund-Montgomery): staging loops split a flat
 * index into (row, column) per element, and an integer divide there costs ~20 instructions. */
struct fastdiv {
    uint32_t d, m, l;
};
inline fastdiv make_fastdiv(uint32_t d) {
    fastdiv f;
    f.d = d;
    f.l = 0;
    while ((1ull << f.l) < d) ++f.l;
    f.m = (uint32_t)((((1ull << f.l) - d) << 32) / d + 1);
    return f;
}
__device__ __forceinline__ int fdiv(int n, const fastdiv &f) {
#ifdef CONVT1D_BWD_EMU
    const uint32_t hi = (uint32_t)(((uint64_t)(uint32_t)n * f.m) >> 32);
#else
    const uint32_t hi = __umulhi((uint32_t)n, f.m);
#endif
    return (int)(((uint64_t)hi + (uint32_t)n) >> f.l);
}

__device__ __forceinline__ uint32_t to_tf32(float f) {
#ifdef CONVT1D_BWD_EMU
    return emu::cvt_rna_tf32(f2u(f));
#else
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f));
    return r;
#endif
}

template <int MODE> __device__ __forceinline__ void mma(float c[4], const uint32_t a[4], const uint32_t b[2]) {
#ifdef CONVT1D_BWD_EMU
    emu::mma(MODE == MODE_F16 ? 1 : MODE == MODE_BF16 ? 2 : 0, c, a, b);
#else
    if (MODE == MODE_F16) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else if (MODE == MODE_BF16) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else {
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                     "{%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
#endif
}

/* One global element as the staged value: a tf32/raw f32 word, or the raw 16 bits in the low half. */
template <int MODE> __device__ __forceinline__ uint32_t load_elem(const void *p, int64_t idx) {
    if (MODE == MODE_TF32) return to_tf32(static_cast<const float *>(p)[idx]);
    if (MODE == MODE_3XTF32) return f2u(static_cast<const float *>(p)[idx]);
    return static_cast<const uint16_t *>(p)[idx];
}

/* Element `half` (0 or 1) of word `wi`; for one-element words `half` is always 0. */
template <int EPW> __device__ __forceinline__ void put_elem(uint32_t *words, int wi, int half, uint32_t v) {
    if (EPW == 1)
        words[wi] = v;
    else
        reinterpret_cast<uint16_t *>(words)[2 * wi + half] = (uint16_t)v;
}

__device__ __forceinline__ void store_out(float *p, float v) { *p = v; }
__device__ __forceinline__ void store_out(__half *p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ void store_out(__nv_bfloat16 *p, float v) { *p = __float2bfloat16_rn(v); }

/* Asynchronous global -> shared copies (sm_80+). A zero src-size fills zeros: the predicated-off
 * elements of a staged tile cost no load. `src` must still be a valid address; callers pass the base. */
__device__ __forceinline__ void cp_async4(uint32_t *dst, const void *src, bool valid) {
#ifdef CONVT1D_BWD_EMU
    *dst = valid ? *static_cast<const uint32_t *>(src) : 0u;
#else
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 4 : 0));
#endif
}
__device__ __forceinline__ void cp_async16(uint32_t *dst, const void *src, bool valid) {
#ifdef CONVT1D_BWD_EMU
    if (valid)
        memcpy(dst, src, 16);
    else
        memset(dst, 0, 16);
#else
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 16 : 0));
#endif
}
__device__ __forceinline__ void cp_async_commit() {
#ifndef CONVT1D_BWD_EMU
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
/* Waits until at most N of this thread's committed groups are still in flight. */
template <int N> __device__ __forceinline__ void cp_async_wait() {
#ifndef CONVT1D_BWD_EMU
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

/* 3xTF32: x = big + small, both tf32; a*b ~ big*big + big*small + small*big. */
__device__ __forceinline__ void split_tf32(uint32_t raw, uint32_t &big, uint32_t &small) {
    const float f = u2f(raw);
    big = to_tf32(f);
    small = to_tf32(f - u2f(big));
}

/* acc += A(16 x 8 words) * B(8 words x 8) for NI column fragments and 2 row fragments. In 3xTF32 mode
 * the small-part products go first so the big one lands last on the larger accumulated value.
 * RAW: TF32 words were staged as raw floats (cp.async copies bits), so round them here. */
template <int MODE, int NI, bool RAW> struct frag_math {
    static __device__ __forceinline__ void prep_a(uint32_t a[2][4], uint32_t as[2][4]) {
        if (MODE == MODE_3XTF32) {
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
#pragma unroll
                for (int r = 0; r < 4; ++r) split_tf32(a[mi][r], a[mi][r], as[mi][r]);
        } else if (MODE == MODE_TF32 && RAW) {
#pragma unroll
            for (int mi = 0; mi < 2; ++mi)
#pragma unroll
                for (int r = 0; r < 4; ++r) a[mi][r] = to_tf32(u2f(a[mi][r]));
        }
    }
    static __device__ __forceinline__ void step(float acc[2][NI][4], int ni, uint32_t a[2][4], uint32_t as[2][4],
                                                uint32_t b[2]) {
        if (MODE == MODE_3XTF32) {
            uint32_t bs[2];
            split_tf32(b[0], b[0], bs[0]);
            split_tf32(b[1], b[1], bs[1]);
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                mma<MODE>(acc[mi][ni], as[mi], b);
                mma<MODE>(acc[mi][ni], a[mi], bs);
                mma<MODE>(acc[mi][ni], a[mi], b);
            }
        } else {
            if (MODE == MODE_TF32 && RAW) {
                b[0] = to_tf32(u2f(b[0]));
                b[1] = to_tf32(u2f(b[1]));
            }
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) mma<MODE>(acc[mi][ni], a[mi], b);
        }
    }
};

/* Warp tiling of a BM x 128 block tile, each warp 32 rows x WN columns:
 *   BM = 32: 4 warps, 1 x 4 (32 x 32);  BM = 64: 4 warps, 2 x 2 (32 x 64);  BM = 128: 8 warps, 4 x 2. */
template <int BM> struct warp_layout {
    static constexpr int THREADS = BM == 128 ? 256 : 128;
    static constexpr int WARPS_M = BM / 32;
    static constexpr int WARPS_N = THREADS / 32 / WARPS_M;
    static constexpr int WN = kBN / WARPS_N;
    static constexpr int NI = WN / 8;
    /* Register cap via __launch_bounds__: 128 (grad_input) / 168 (grad_weight, 128-thread blocks). */
    static constexpr int MIN_BLOCKS_IN = BM == 128 ? 2 : 4;
    static constexpr int MIN_BLOCKS_W = BM == 128 ? 2 : 3;
};

/* acc = 0 for one warp's 2 x NI fragments of 4 floats. */
template <int NI> __device__ __forceinline__ void zero_acc(float (&acc)[2][NI][4]) {
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < NI; ++ni)
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[mi][ni][r] = 0.f;
}

/* acc += part, element by element with IEEE adds (split TF32: a chunk's sum from fresh registers, see
 * bwd_input_tc_kernel). */
template <int NI> __device__ __forceinline__ void add_acc(float (&acc)[2][NI][4], const float (&part)[2][NI][4]) {
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < NI; ++ni)
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[mi][ni][r] += part[mi][ni][r];
}

/* Accumulators -> shared tile [BM][kCStride] (float); the caller syncs before and after. */
template <int NI>
__device__ __forceinline__ void acc_to_smem(float *cs, float acc[2][NI][4], int wm, int wn, int WN, int lane) {
    const int g8 = lane >> 2, t4 = lane & 3;
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < NI; ++ni)
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const int row = wm * 32 + mi * 16 + g8 + (r >> 1) * 8;
                const int col = wn * WN + ni * 8 + 2 * t4 + (r & 1);
                cs[row * kCStride + col] = acc[mi][ni][r];
            }
}

/* ------------------------------------------------------------------ grad_input */

struct bin_args {
    int64_t Cin, Cout, L_in, L_out, pad;
    int64_t tiles_per_n; /* position tiles per batch row */
    int cin_g, cout_g, K, s, d;
    int cw;              /* words per output-channel chunk (multiple of 8) */
    int span, span_pad;  /* staged gy positions per channel, and the smem row stride (words) */
    int wrs;             /* w tile row stride in elements (>= cw*EPW*K) */
    int stage_words;     /* one staging buffer (gy window + w tile), 16-byte multiple */
    fastdiv div_span, div_rowel; /* by span, by cw*EPW*K */
};

/* What a grad_input block derives from its indices. */
struct bin_block {
    int64_t i0, base, gy_row0, w_row0, w_rowlen;
    int ci0, CH, rowel;
};

/* Stages chunk c0 (CH output channels): the gy window [CH][span] and the w tile [BM][CH*K], zero outside
 * the tensors. PIPE (f32 only): cp.async of raw bits, the caller commits the group; else plain loads
 * converted to words (tf32-rounded, or 16-bit channel pairs). */
template <int MODE, int BM, bool PIPE>
__device__ __forceinline__ void input_stage(uint32_t *buf, int c0, const void *gy, const void *w, const bin_args &a,
                                            const bin_block &b) {
    constexpr int EPW = mode_traits<MODE>::EPW;
    constexpr int THREADS = warp_layout<BM>::THREADS;
    const int tid = threadIdx.x;
    uint32_t *gys = buf;                     /* [cw][span_pad]: word row r = channels c0 + r*EPW (+1) */
    uint32_t *wsm = buf + a.cw * a.span_pad; /* [BM][wrs] elements: w[ci, c0.., :] as in global memory */
    const int nel = b.CH * a.span;
#pragma unroll 4
    for (int e = tid; e < nel; e += THREADS) {
        const int ch = fdiv(e, a.div_span), j = e - ch * a.span;
        const int64_t pos = b.base + j;
        const bool ok = c0 + ch < a.cout_g && pos >= 0 && pos < a.L_out;
        const int64_t gi = (b.gy_row0 + c0 + ch) * a.L_out + pos;
        if (PIPE)
            cp_async4(gys + ch * a.span_pad + j, ok ? static_cast<const float *>(gy) + gi : gy, ok);
        else
            put_elem<EPW>(gys, (ch / EPW) * a.span_pad + j, ch % EPW, ok ? load_elem<MODE>(gy, gi) : 0u);
    }
    /* w[ci, c0 .. c0+CH, 0..K) is contiguous per ci: a straight coalesced copy, zero past Cout_g. */
    const int valid_el = (a.cout_g - c0 < b.CH ? a.cout_g - c0 : b.CH) * a.K;
    const int wel = BM * b.rowel;
#pragma unroll 4
    for (int e = tid; e < wel; e += THREADS) {
        const int ci = fdiv(e, a.div_rowel), q = e - ci * b.rowel;
        const bool ok = b.ci0 + ci < a.cin_g && q < valid_el;
        const int64_t wi = (b.w_row0 + ci) * b.w_rowlen + (int64_t)c0 * a.K + q;
        if (PIPE)
            cp_async4(wsm + ci * a.wrs + q, ok ? static_cast<const float *>(w) + wi : w, ok);
        else if (EPW == 1)
            wsm[ci * a.wrs + q] = ok ? load_elem<MODE>(w, wi) : 0u;
        else
            reinterpret_cast<uint16_t *>(wsm)[ci * a.wrs + q] = ok ? (uint16_t)load_elem<MODE>(w, wi) : (uint16_t)0;
    }
}

/* acc += the staged chunk (gy window words gys, w tile wsm): K taps x cw/8 k-steps. */
template <int MODE, int BM, bool RAW>
__device__ __forceinline__ void input_compute(float (&acc)[2][warp_layout<BM>::NI][4], const uint32_t *gys,
                                              const uint32_t *wsm, const bin_args &a) {
    constexpr int EPW = mode_traits<MODE>::EPW;
    typedef warp_layout<BM> WL;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int g8 = lane >> 2, t4 = lane & 3;
    const int wm = warp / WL::WARPS_N, wn = warp % WL::WARPS_N;
    for (int k = 0; k < a.K; ++k) {
        const int koff = k * a.d;
        for (int kw = 0; kw < a.cw; kw += 8) {
            uint32_t af[2][4], as[2][4];
            /* A word (row, c) = w[ci0+row, c0 + c*EPW (+1), k]: element c*EPW*K + k of the row. */
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                const int el = (wm * 32 + mi * 16 + g8) * a.wrs + (kw + t4) * EPW * a.K + k;
                const int r8 = 8 * a.wrs, c4 = 4 * EPW * a.K;
                if (EPW == 1) {
                    af[mi][0] = wsm[el];
                    af[mi][1] = wsm[el + r8];
                    af[mi][2] = wsm[el + c4];
                    af[mi][3] = wsm[el + r8 + c4];
                } else {
                    const uint16_t *w16 = reinterpret_cast<const uint16_t *>(wsm);
                    const int K1 = a.K;
                    af[mi][0] = w16[el] | ((uint32_t)w16[el + K1] << 16);
                    af[mi][1] = w16[el + r8] | ((uint32_t)w16[el + r8 + K1] << 16);
                    af[mi][2] = w16[el + c4] | ((uint32_t)w16[el + c4 + K1] << 16);
                    af[mi][3] = w16[el + r8 + c4] | ((uint32_t)w16[el + r8 + c4 + K1] << 16);
                }
            }
            frag_math<MODE, WL::NI, RAW>::prep_a(af, as);
            const uint32_t *b0p = gys + (kw + t4) * a.span_pad + koff;
            const uint32_t *b1p = b0p + 4 * a.span_pad;
#pragma unroll
            for (int ni = 0; ni < WL::NI; ++ni) {
                const int pos = (wn * WL::WN + ni * 8 + g8) * a.s;
                uint32_t bf[2] = {b0p[pos], b1p[pos]};
                frag_math<MODE, WL::NI, RAW>::step(acc, ni, af, as, bf);
            }
        }
    }
}

/* Split TF32 sums each chunk's products (cw*EPW channels x K taps) in fresh registers and adds them to the total with
 * IEEE adds, as the forward and grad_weight do: the tensor cores' accumulation over a whole C_out/groups x K reduction
 * lost fp32 accuracy (the fuzz, run 271: relative error 1.05e-5 to 6.3e-5 on layers of 416-6656 terms against cuDNN's
 * 1.2e-6 to 4.0e-6). Those registers cost occupancy: one 256-thread / two 128-thread blocks per SM in that mode. */
template <int MODE, int BM, bool PIPE>
__global__ void __launch_bounds__(warp_layout<BM>::THREADS,
                                  MODE == MODE_3XTF32 ? (BM == 128 ? 1 : 2) : warp_layout<BM>::MIN_BLOCKS_IN)
    bwd_input_tc_kernel(const void *__restrict__ gy, const void *__restrict__ w, void *__restrict__ gx_, bin_args a) {
    typedef typename mode_traits<MODE>::T T;
    constexpr int EPW = mode_traits<MODE>::EPW;
    typedef warp_layout<BM> WL;
    CT_DYN_SMEM(sm);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp / WL::WARPS_N, wn = warp % WL::WARPS_N;
    const int64_t n = blockIdx.x / a.tiles_per_n;
    const int grp = blockIdx.z;
    bin_block b;
    b.i0 = ((int64_t)blockIdx.x - n * a.tiles_per_n) * kBN;
    b.base = b.i0 * a.s - a.pad; /* gy position of window column 0 */
    b.ci0 = blockIdx.y * BM;
    b.CH = a.cw * EPW;           /* output channels per chunk */
    b.rowel = b.CH * a.K;        /* w elements per input channel per chunk */
    b.gy_row0 = n * a.Cout + (int64_t)grp * a.cout_g;
    b.w_row0 = (int64_t)grp * a.cin_g + b.ci0;
    b.w_rowlen = (int64_t)a.cout_g * a.K;

    float acc[2][WL::NI][4];
    zero_acc<WL::NI>(acc);
    /* acc += one staged chunk (split TF32: through fresh registers, see above) */
    auto chunk = [&](const uint32_t *gys, const uint32_t *wsm, auto raw) {
        constexpr bool RAW = decltype(raw)::value;
        if constexpr (MODE == MODE_3XTF32) {
            float tile[2][WL::NI][4];
            zero_acc<WL::NI>(tile);
            input_compute<MODE, BM, RAW>(tile, gys, wsm, a);
            add_acc<WL::NI>(acc, tile);
        } else {
            input_compute<MODE, BM, RAW>(acc, gys, wsm, a);
        }
    };

    if (PIPE) {
        /* Two buffers: chunk it+1 streams in (cp.async) while chunk it is multiplied. */
        input_stage<MODE, BM, true>(sm, 0, gy, w, a, b);
        cp_async_commit();
        int it = 0;
        for (int c0 = 0; c0 < a.cout_g; c0 += b.CH, ++it) {
            if (c0 + b.CH < a.cout_g) {
                input_stage<MODE, BM, true>(sm + ((it + 1) & 1) * a.stage_words, c0 + b.CH, gy, w, a, b);
                cp_async_commit();
                cp_async_wait<1>(); /* this thread's copies of chunk it have landed */
            } else {
                cp_async_wait<0>();
            }
            CT_SYNC(); /* ... and everyone's */
            const uint32_t *stage = sm + (it & 1) * a.stage_words;
            chunk(stage, stage + a.cw * a.span_pad, std::true_type());
            CT_SYNC(); /* this buffer is refilled by the next iteration's stage */
        }
    } else {
        for (int c0 = 0; c0 < a.cout_g; c0 += b.CH) {
            input_stage<MODE, BM, false>(sm, c0, gy, w, a, b);
            CT_SYNC();
            chunk(sm, sm + a.cw * a.span_pad, std::false_type());
            CT_SYNC();
        }
    }

    float *cs = reinterpret_cast<float *>(sm);
    acc_to_smem<WL::NI>(cs, acc, wm, wn, WL::WN, lane);
    CT_SYNC();
    T *gx = static_cast<T *>(gx_);
    for (int e = tid; e < BM * kBN; e += WL::THREADS) {
        const int row = e / kBN, col = e % kBN;
        if (b.ci0 + row < a.cin_g && b.i0 + col < a.L_in)
            store_out(gx + (n * a.Cin + b.w_row0 + row) * a.L_in + b.i0 + col, cs[row * kCStride + col]);
    }
}

/* ------------------------------------------------------------------ grad_weight */

struct bw_args {
    int64_t Cin, Cout, L_in, L_out, pad;
    int64_t tiles_per_n, red_tiles; /* reduction tiles (kRW words of positions) per batch row, in all */
    int64_t wnumel;
    int cin_g, cout_g, K, s, d;
    int col_tiles, splits;
    int rows, span, span_pad;       /* staged gy channels, positions per channel, row stride */
    int stage_words;                /* one staging buffer (x tile + gy window), 16-byte multiple */
    int vec_x;                      /* x rows load as 16-byte vectors (L_in % (4*EPW) == 0, x 16-byte aligned) */
    fastdiv div_span;
    /* 16-bit pipeline: gy lands raw ([rows][rawpad] halves, row r from the even element at or below
     * its window start) by 4-byte cp.async and is paired into words by weight_repack before the MMAs. */
    int rawpad;                     /* halves per raw row (even): covers the window + s + 1 */
    fastdiv div_rawq;               /* rawpad / 2 */
    int gys_off;                    /* word offset of the paired gy window (after the two stages) */
    int64_t gy_total;               /* elements of gy: N * C_out * L_out */
    float *ws;                      /* [splits][wnumel] partials, or NULL: write grad_w directly */
};

/* Stages reduction tile rt: x [BM][kRW words] and the gy window [rows][span] of this block's columns.
 * PIPE: cp.async of raw bits, the caller commits (16-bit: x by 16-byte vectors, gy as raw halves that
 * weight_repack pairs). */
template <int MODE, int BM, bool PIPE>
__device__ __forceinline__ void weight_stage(uint32_t *buf, int64_t rt, const void *gy, const void *x,
                                             const bw_args &a, int ci0, int co_lo, int grp) {
    constexpr int EPW = mode_traits<MODE>::EPW;
    constexpr int RP = kRW * EPW; /* positions per reduction tile */
    constexpr int THREADS = warp_layout<BM>::THREADS;
    const int tid = threadIdx.x;
    uint32_t *xs = buf;                /* [BM][kXRow]: word = EPW consecutive positions */
    uint32_t *gys = buf + BM * kXRow;  /* [rows][span_pad]: word m = gy[base+m] (, gy[base+m+s]) */
    const int64_t n = rt / a.tiles_per_n;
    const int64_t i0 = (rt - n * a.tiles_per_n) * RP;
    const int64_t base = i0 * a.s - a.pad;
    const int64_t x_row0 = n * a.Cin + (int64_t)grp * a.cin_g + ci0;
    if (a.vec_x) {
        /* 4 words (4 f32 / 8 f16) per load; a vector is wholly inside or outside [0, L_in). */
#pragma unroll 2
        for (int e = tid; e < BM * (kRW / 4); e += THREADS) {
            const int ci = e / (kRW / 4), vq = e % (kRW / 4);
            const int il = vq * 4 * EPW;
            const bool ok = ci0 + ci < a.cin_g && i0 + il < a.L_in;
            const char *src = static_cast<const char *>(x) + ((x_row0 + ci) * a.L_in + i0 + il) * (4 / EPW);
            if (PIPE) {
                cp_async16(xs + ci * kXRow + vq * 4, ok ? (const void *)src : x, ok);
            } else {
                uint4 v = make_uint4(0u, 0u, 0u, 0u);
                if (ok) {
                    v = *reinterpret_cast<const uint4 *>(src);
                    if (MODE == MODE_TF32) {
                        v.x = to_tf32(u2f(v.x));
                        v.y = to_tf32(u2f(v.y));
                        v.z = to_tf32(u2f(v.z));
                        v.w = to_tf32(u2f(v.w));
                    }
                }
                *reinterpret_cast<uint4 *>(xs + ci * kXRow + vq * 4) = v;
            }
        }
    } else {
#pragma unroll 4
        for (int e = tid; e < BM * RP; e += THREADS) {
            const int ci = e / RP, il = e % RP;
            const bool ok = ci0 + ci < a.cin_g && i0 + il < a.L_in;
            const int64_t xi = (x_row0 + ci) * a.L_in + i0 + il;
            if (PIPE)
                cp_async4(xs + ci * kXRow + il, ok ? static_cast<const float *>(x) + xi : x, ok);
            else
                put_elem<EPW>(xs, ci * kXRow + il / EPW, il % EPW, ok ? load_elem<MODE>(x, xi) : 0u);
        }
    }
    const int64_t gy_row0 = n * a.Cout + (int64_t)grp * a.cout_g + co_lo;
    if (PIPE && EPW == 2) {
        /* Raw halves by aligned 4-byte pairs: row r's pair q is elements A_r + 2q, A_r + 2q + 1 with
         * A_r the even absolute index at or below the row's window start. Pairs wholly outside gy are
         * zero-filled; what lies outside the row or [0, L_out) is masked later by weight_repack. */
        uint16_t *raw = reinterpret_cast<uint16_t *>(buf + BM * kXRow);
        const int nq = a.rawpad / 2;
        const int npairs = a.rows * nq;
        for (int e = tid; e < npairs; e += THREADS) {
            const int r = fdiv(e, a.div_rawq), q = e - r * nq;
            const int64_t A = (gy_row0 + r) * a.L_out + base;
            const int64_t E = A - (A & 1) + 2 * q;
            const bool ok = E >= 0 && E + 1 < a.gy_total;
            uint32_t *dst = reinterpret_cast<uint32_t *>(raw + (int64_t)r * a.rawpad) + q;
            if (ok)
                cp_async4(dst, static_cast<const uint16_t *>(gy) + E, true);
            else /* outside gy, or its last element alone (odd total): a plain store, no copy in flight */
                *dst = E >= 0 && E < a.gy_total ? (uint32_t)static_cast<const uint16_t *>(gy)[E] : 0u;
        }
        return;
    }
    const int nel = a.rows * a.span;
#pragma unroll 4
    for (int e = tid; e < nel; e += THREADS) {
        const int r = fdiv(e, a.div_span), m = e - r * a.span;
        const bool ch_ok = co_lo + r < a.cout_g;
        const int64_t pos = base + m;
        const bool ok = ch_ok && pos >= 0 && pos < a.L_out;
        const int64_t gi = (gy_row0 + r) * a.L_out + pos;
        if (PIPE) {
            cp_async4(gys + r * a.span_pad + m, ok ? static_cast<const float *>(gy) + gi : gy, ok);
        } else {
            uint32_t v = ok ? load_elem<MODE>(gy, gi) : 0u;
            if (EPW == 2) {
                const int64_t pos2 = pos + a.s;
                const bool ok2 = ch_ok && pos2 >= 0 && pos2 < a.L_out;
                v |= (ok2 ? load_elem<MODE>(gy, gi + a.s) : 0u) << 16;
            }
            gys[r * a.span_pad + m] = v;
        }
    }
}

/* 16-bit pipeline: the raw halves of stage `buf` (weight_stage) -> the paired window gys:
 * word m of row r = (gy[base + m], gy[base + m + s]), zero where the position is outside [0, L_out)
 * or the row past C_out/groups - the same words the synchronous staging writes. */
template <int BM>
__device__ __forceinline__ void weight_repack(uint32_t *gys, const uint32_t *buf, int64_t rt, const bw_args &a,
                                              int co_lo, int grp) {
    constexpr int THREADS = warp_layout<BM>::THREADS;
    const uint16_t *raw = reinterpret_cast<const uint16_t *>(buf + BM * kXRow);
    const int64_t n = rt / a.tiles_per_n;
    const int64_t i0 = (rt - n * a.tiles_per_n) * (kRW * 2);
    const int64_t base = i0 * a.s - a.pad;
    const int64_t gy_row0 = n * a.Cout + (int64_t)grp * a.cout_g + co_lo;
    const int nel = a.rows * a.span;
    for (int e = threadIdx.x; e < nel; e += THREADS) {
        const int r = fdiv(e, a.div_span), m = e - r * a.span;
        const bool ch_ok = co_lo + r < a.cout_g;
        const int64_t pos = base + m;
        const int o = (int)(((gy_row0 + r) * a.L_out + base) & 1); /* window start within its pair */
        const uint16_t *rr = raw + (int64_t)r * a.rawpad + o + m;
        const uint32_t lo = ch_ok && pos >= 0 && pos < a.L_out ? rr[0] : 0u;
        const uint32_t hi = ch_ok && pos + a.s >= 0 && pos + a.s < a.L_out ? rr[a.s] : 0u;
        gys[r * a.span_pad + m] = lo | (hi << 16);
    }
}

template <int MODE, int BM, bool RAW>
__device__ __forceinline__ void weight_compute(float (&acc)[2][warp_layout<BM>::NI][4],
                                               const int (&coff)[warp_layout<BM>::NI], const uint32_t *xs,
                                               const uint32_t *gys, const bw_args &a) {
    constexpr int EPW = mode_traits<MODE>::EPW;
    typedef warp_layout<BM> WL;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int g8 = lane >> 2, t4 = lane & 3;
    const int wm = warp / WL::WARPS_N;
    const int bstep = EPW * a.s; /* window distance between consecutive reduction words */
    /* Strict mode: the tensor cores truncate when they add into the accumulator, a bias that grows
     * with the reduction length (H100: 7.7e-5 relative over 9000 positions in one split). Each tile
     * therefore sums into fresh registers, added to acc with IEEE round-to-nearest (as the forward does
     * per chunk); the kernel runs at one block per SM for the registers. */
    auto run = [&](float(&sum)[2][WL::NI][4]) {
#pragma unroll 1 /* keeps grad_weight under 128 registers for the 256-thread tile */
        for (int kw = 0; kw < kRW; kw += 8) {
            uint32_t af[2][4], as[2][4];
#pragma unroll
            for (int mi = 0; mi < 2; ++mi) {
                const uint32_t *ap = xs + (wm * 32 + mi * 16 + g8) * kXRow + kw + t4;
                af[mi][0] = ap[0];
                af[mi][1] = ap[8 * kXRow];
                af[mi][2] = ap[4];
                af[mi][3] = ap[8 * kXRow + 4];
            }
            frag_math<MODE, WL::NI, RAW>::prep_a(af, as);
            const int o0 = (kw + t4) * bstep, o1 = o0 + 4 * bstep;
#pragma unroll
            for (int ni = 0; ni < WL::NI; ++ni) {
                uint32_t bf[2] = {gys[coff[ni] + o0], gys[coff[ni] + o1]};
                frag_math<MODE, WL::NI, RAW>::step(sum, ni, af, as, bf);
            }
        }
    };
    if constexpr (MODE == MODE_3XTF32) {
        float tile[2][WL::NI][4];
        zero_acc<WL::NI>(tile);
        run(tile);
        add_acc<WL::NI>(acc, tile);
    } else {
        run(acc);
    }
}

template <int MODE, int BM, bool PIPE>
__global__ void __launch_bounds__(warp_layout<BM>::THREADS, MODE == MODE_3XTF32 ? 1 : warp_layout<BM>::MIN_BLOCKS_W)
    bwd_weight_tc_kernel(const void *__restrict__ gy, const void *__restrict__ x, void *__restrict__ gw_, bw_args a) {
    typedef typename mode_traits<MODE>::T T;
    typedef warp_layout<BM> WL;
    CT_DYN_SMEM(sm);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g8 = lane >> 2;
    const int wm = warp / WL::WARPS_N, wn = warp % WL::WARPS_N;
    const int cit = blockIdx.x / a.col_tiles;
    const int j0 = (blockIdx.x - cit * a.col_tiles) * kBN;
    const int ci0 = cit * BM;
    const int split = blockIdx.y;
    const int grp = blockIdx.z;
    const int co_lo = j0 / a.K;
    const int ncols = a.cout_g * a.K;

    /* Column j = co*K + k of this lane's B fragments: its gy row and tap offset in the staged window.
     * Columns past Cout_g*K land on zero-filled rows and are never stored. */
    int coff[WL::NI];
#pragma unroll
    for (int ni = 0; ni < WL::NI; ++ni) {
        const int j = j0 + wn * WL::WN + ni * 8 + g8;
        const int co = j / a.K, k = j - co * a.K;
        coff[ni] = (co - co_lo) * a.span_pad + k * a.d;
    }

    float acc[2][WL::NI][4];
    zero_acc<WL::NI>(acc);

    const int64_t rt_begin = split * a.red_tiles / a.splits;
    const int64_t rt_end = (split + 1) * a.red_tiles / a.splits;
    if (PIPE) {
        /* Two buffers: tile rt+1 streams in (cp.async) while tile rt is multiplied. */
        if (rt_begin < rt_end) weight_stage<MODE, BM, true>(sm, rt_begin, gy, x, a, ci0, co_lo, grp);
        cp_async_commit();
        for (int64_t rt = rt_begin; rt < rt_end; ++rt) {
            const int cur = (int)((rt - rt_begin) & 1);
            if (rt + 1 < rt_end) {
                weight_stage<MODE, BM, true>(sm + (cur ^ 1) * a.stage_words, rt + 1, gy, x, a, ci0, co_lo, grp);
                cp_async_commit();
                cp_async_wait<1>();
            } else {
                cp_async_wait<0>();
            }
            CT_SYNC();
            uint32_t *stage = sm + cur * a.stage_words;
            if (mode_traits<MODE>::EPW == 2) {
                weight_repack<BM>(sm + a.gys_off, stage, rt, a, co_lo, grp);
                CT_SYNC();
                weight_compute<MODE, BM, false>(acc, coff, stage, sm + a.gys_off, a);
            } else {
                weight_compute<MODE, BM, true>(acc, coff, stage, stage + BM * kXRow, a);
            }
            CT_SYNC();
        }
        cp_async_wait<0>(); /* nothing may still be landing in smem the epilogue reuses */
        CT_SYNC();
    } else {
        for (int64_t rt = rt_begin; rt < rt_end; ++rt) {
            weight_stage<MODE, BM, false>(sm, rt, gy, x, a, ci0, co_lo, grp);
            CT_SYNC();
            weight_compute<MODE, BM, false>(acc, coff, sm, sm + BM * kXRow, a);
            CT_SYNC();
        }
    }

    float *cs = reinterpret_cast<float *>(sm);
    acc_to_smem<WL::NI>(cs, acc, wm, wn, WL::WN, lane);
    CT_SYNC();
    const int64_t out_row0 = (int64_t)grp * a.cin_g + ci0;
    for (int e = tid; e < BM * kBN; e += WL::THREADS) {
        const int row = e / kBN, col = e % kBN;
        if (ci0 + row < a.cin_g && j0 + col < ncols) {
            const int64_t idx = (out_row0 + row) * ncols + j0 + col;
            if (a.ws)
                a.ws[split * a.wnumel + idx] = cs[row * kCStride + col];
            else
                store_out(static_cast<T *>(gw_) + idx, cs[row * kCStride + col]);
        }
    }
}

/* grad_w[e] = sum of the split partials in split order (fixed order: deterministic). */
template <typename T>
__global__ void __launch_bounds__(kThreads)
    bwd_weight_reduce_kernel(const float *__restrict__ ws, T *__restrict__ gw, int64_t wnumel, int splits) {
    const int64_t e = (int64_t)blockIdx.x * kThreads + threadIdx.x;
    if (e >= wnumel) return;
    double s = 0.0;
    for (int k = 0; k < splits; ++k) s += ws[k * wnumel + e];
    store_out(gw + e, (float)s);
}

/* ------------------------------------------------------------------ host side */

int mode_of(const convt1d_problem &pr) {
    switch (pr.dtype) {
    case CONVT1D_F32: return pr.math == CONVT1D_MATH_STRICT_FP32 ? MODE_3XTF32 : MODE_TF32;
    case CONVT1D_F16: return MODE_F16;
    case CONVT1D_BF16: return MODE_BF16;
    default: return -1;
    }
}

/* Shared preconditions: int32 in-kernel index math (channel counts, taps, window) must be safe. */
bool basic_ok(const convt1d_problem &pr) {
    const convt1d_params &p = pr.p;
    return mode_of(pr) >= 0 && pr.cin_g >= kMinCinG && pr.cin_g <= (1 << 24) && pr.cout_g <= (1 << 24) &&
           p.kernel_size <= 4096 && p.stride <= 4096 && p.dilation <= 65536 && p.groups <= 65535 &&
           pr.cout_g * p.kernel_size <= (1 << 28);
}

/* Shared-memory bank conflicts of one warp-wide 32-bit load: the largest number of distinct words that
 * fall into one bank (1 = conflict-free). word(lane) gives the word address each lane reads. */
/* Worst number of distinct 32-bit words one shared-memory bank serves for a warp whose lane l reads word
 * word(l) (1 = conflict-free; lanes reading the same word are one access). O(32*32) at most: the
 * planners call it for up to 64 candidate strides on every call, on the host, so it must stay cheap
 * (a 32x costlier first version added ~0.2 ms of host time per 16-bit backward call). */
template <typename F> int bank_conflicts(F word) {
    long long w[32];
    int per_bank[32] = {0};
    int worst = 1;
    for (int l = 0; l < 32; ++l) {
        w[l] = word(l);
        bool seen = false;
        for (int i = 0; i < l && !seen; ++i) seen = w[i] == w[l];
        if (seen) continue;
        const int b = (int)(((w[l] % 32) + 32) % 32);
        if (++per_bank[b] > worst) worst = per_bank[b];
    }
    return worst;
}

/* The row stride in [lo, lo + 32*per_word) whose fragment loads conflict least (first minimum). */
template <typename F> int pick_stride(int lo, int per_word, F conflicts_of) {
    int best = lo, best_c = 1 << 30;
    for (int sp = lo; sp < lo + 32 * per_word; ++sp) {
        const int c = conflicts_of(sp);
        if (c < best_c) best_c = c, best = sp;
        if (c == 1) break;
    }
    return best;
}

/* pick_stride memoized per thread on the parameters its conflict function reads (the planners run on
 * every call, several times per backward): a few microseconds per problem instead of tens. */
struct StrideKey {
    int kind, lo, k, d, s, epw;
    bool operator==(const StrideKey &o) const {
        return kind == o.kind && lo == o.lo && k == o.k && d == o.d && s == o.s && epw == o.epw;
    }
};
template <typename F> int cached_stride(const StrideKey &key, F compute) {
    constexpr int kSlots = 16;
    static thread_local StrideKey keys[kSlots];
    static thread_local int vals[kSlots], used = 0, next = 0;
    for (int i = 0; i < used; ++i)
        if (keys[i] == key) return vals[i];
    const int v = compute();
    keys[next] = key;
    vals[next] = v;
    next = (next + 1) % kSlots;
    if (used < kSlots) ++used;
    return v;
}

/* Dev/benchmark switch for the cp.async double-buffered f32 path (convt1d_bwd_tc_set_pipeline). */
int g_pipeline = 1;

struct bin_plan {
    bin_args a;
    int BM;
    bool pipe; /* f32: double-buffered cp.async staging */
    dim3 grid;
    size_t smem;
};

bool plan_input(const convt1d_problem &pr, bin_plan *pl) {
    if (!basic_ok(pr)) return false;
    const convt1d_params &p = pr.p;
    const int EPW = pr.dtype == CONVT1D_F32 ? 1 : 2;
    bin_args &a = pl->a;
    a.Cin = p.in_channels;
    a.Cout = p.out_channels;
    a.L_in = p.in_length;
    a.L_out = pr.out_length;
    a.pad = p.padding;
    a.tiles_per_n = (p.in_length + kBN - 1) / kBN;
    a.cin_g = (int)pr.cin_g;
    a.cout_g = (int)pr.cout_g;
    a.K = (int)p.kernel_size;
    a.s = (int)p.stride;
    a.d = (int)p.dilation;
    const int64_t span = (int64_t)(kBN - 1) * a.s + (int64_t)a.d * (a.K - 1) + 1;
    if (span > (1 << 20)) return false;
    a.span = (int)span;
    /* B fragment: lane (g, t) reads word row t at window column g*s. */
    a.span_pad = cached_stride({0, a.span, 0, 0, a.s, 0}, [&] {
        return pick_stride(a.span, 1, [&](int sp) {
            return bank_conflicts([&](int l) { return (long long)(l & 3) * sp + (long long)(l >> 2) * a.s; });
        });
    });
    /* BM = 128 halves the gy staging per MAC for wide layers, when that still leaves >= 2 blocks per SM. */
    const int64_t pos_tiles = p.batch * a.tiles_per_n;
    int bm = pr.cin_g <= 32 ? 32 : pr.cin_g <= 64 ? 64 : 128;
    if (bm == 128 && pos_tiles * ((pr.cin_g + 127) / 128) * p.groups < 264) bm = 64;
    const int64_t cw_needed = ((pr.cout_g + EPW - 1) / EPW + 7) / 8 * 8;
    /* 16-bit: synchronous staging. A cp.async pipeline of raw halves plus a repack pass (as grad_weight
     * has) was measured slower here on every suite shape (H100, bf16 ms, pipelined vs not: KB64 6.16 vs
     * 5.83, KB79 1.13 vs 1.05, hifigan_up3 2.92 vs 2.68): the repack pass and the smaller channel chunk
     * it leaves room for cost more than the copies' latency. */
    const int want_stages = pr.dtype == CONVT1D_F32 && g_pipeline ? 2 : 1;
    for (;;) {
        pl->BM = bm;
        bool fits = false;
        for (int stages = want_stages; stages >= 1 && !fits; --stages) {
            /* Widest channel chunk that keeps the main-loop tiles small enough for several blocks per SM. */
            const size_t total_budget = (size_t)(bm == 128 ? 96 : 48) * 1024;
            size_t main_bytes = 0;
            a.cw = 0;
            for (int cw = 32; cw >= 8; cw /= 2) {
                if (cw > 8 && cw / 2 >= cw_needed) continue; /* no point staging more channels than exist */
                const int rowel = cw * EPW * a.K;
                /* A fragment: lane (g, t) reads row g, element t*EPW*K (16-bit: two elements per word). */
                a.wrs = cached_stride({1, rowel, a.K, 0, 0, EPW}, [&] {
                    return pick_stride(rowel, EPW, [&](int rs) {
                        return bank_conflicts(
                            [&](int l) { return ((long long)(l >> 2) * rs + (long long)(l & 3) * EPW * a.K) / EPW; });
                    });
                });
                main_bytes = 4 * (size_t)cw * a.span_pad + (size_t)bm * a.wrs * (4 / EPW);
                main_bytes = (main_bytes + 15) / 16 * 16;
                a.cw = cw;
                if (stages * main_bytes <= total_budget) break;
            }
            a.stage_words = (int)(main_bytes / 4);
            const size_t epi = 4 * (size_t)bm * kCStride;
            pl->smem = stages * main_bytes > epi ? stages * main_bytes : epi;
            pl->pipe = stages == 2;
            fits = pl->smem <= kMaxSmem;
        }
        if (fits) break;
        if (bm == 32) return false;
        bm /= 2; /* any BM is correct for any Cin_g: smaller tiles just mean more of them */
    }
    a.div_span = make_fastdiv((uint32_t)a.span);
    a.div_rowel = make_fastdiv((uint32_t)(a.cw * EPW * a.K));
    const int64_t gx = p.batch * a.tiles_per_n;
    const int64_t gy = (pr.cin_g + pl->BM - 1) / pl->BM;
    if (gx <= 0 || gx > 0x7fffffffLL || gy > 65535) return false;
    pl->grid = dim3((unsigned)gx, (unsigned)gy, (unsigned)p.groups);
    return true;
}

struct bw_plan {
    bw_args a;
    int BM;
    bool pipe; /* f32: double-buffered cp.async staging */
    dim3 grid;
    size_t smem;
    size_t ws_bytes; /* workspace this plan needs (0 with one split) */
};

/* ws_avail: workspace the caller has (SIZE_MAX when planning the size itself). */
bool plan_weight(const convt1d_problem &pr, size_t ws_avail, bw_plan *pl) {
    if (!basic_ok(pr)) return false;
    const convt1d_params &p = pr.p;
    const int EPW = pr.dtype == CONVT1D_F32 ? 1 : 2;
    const int RP = kRW * EPW;
    bw_args &a = pl->a;
    a.Cin = p.in_channels;
    a.Cout = p.out_channels;
    a.L_in = p.in_length;
    a.L_out = pr.out_length;
    a.pad = p.padding;
    a.cin_g = (int)pr.cin_g;
    a.cout_g = (int)pr.cout_g;
    a.K = (int)p.kernel_size;
    a.s = (int)p.stride;
    a.d = (int)p.dilation;
    a.tiles_per_n = (p.in_length + RP - 1) / RP;
    a.red_tiles = p.batch * a.tiles_per_n;
    a.wnumel = p.in_channels * pr.cout_g * p.kernel_size;
    const int64_t ncols = pr.cout_g * p.kernel_size;
    a.col_tiles = (int)((ncols + kBN - 1) / kBN);
    a.rows = (kBN - 1) / a.K + 2;
    const int64_t span = (int64_t)(RP - 1) * a.s + (int64_t)a.d * (a.K - 1) + 1;
    if (span > (1 << 20)) return false;
    a.span = (int)span;
    /* B fragment: lane (g, t) reads column j = g (gy row j/K, tap j%K) at reduction word t. */
    a.span_pad = cached_stride({2, a.span, a.K, a.d, a.s, EPW}, [&] {
        return pick_stride(a.span, 1, [&](int sp) {
            return bank_conflicts([&](int l) {
                const int j = l >> 2;
                return (long long)(j / a.K) * sp + (long long)(j % a.K) * a.d + (long long)(l & 3) * EPW * a.s;
            });
        });
    });
    a.div_span = make_fastdiv((uint32_t)a.span);
    pl->BM = pr.cin_g <= 32 ? 32 : pr.cin_g <= 64 ? 64 : 128;
    /* 16-bit: two stages of x + raw gy halves, plus one paired gy window (weight_repack). */
    a.rawpad = (int)((span + a.s + 2) & ~(int64_t)1);
    a.div_rawq = make_fastdiv((uint32_t)(a.rawpad / 2));
    a.gy_total = p.batch * p.out_channels * pr.out_length;
    const int want_stages = g_pipeline ? 2 : 1;
    for (;;) {
        bool fits = false;
        for (int stages = want_stages; stages >= 1 && !fits; --stages) {
            const size_t gy_words = EPW == 2 && stages == 2 ? (size_t)a.rows * a.rawpad / 2 : (size_t)a.rows * a.span_pad;
            size_t main_bytes = 4 * ((size_t)pl->BM * kXRow + gy_words);
            main_bytes = (main_bytes + 15) / 16 * 16;
            a.stage_words = (int)(main_bytes / 4);
            a.gys_off = stages * a.stage_words;
            const size_t paired = EPW == 2 && stages == 2 ? 4 * (size_t)a.rows * a.span_pad : 0;
            const size_t epi = 4 * (size_t)pl->BM * kCStride;
            pl->smem = stages * main_bytes + paired > epi ? stages * main_bytes + paired : epi;
            pl->pipe = stages == 2;
            fits = pl->smem <= kMaxSmem;
        }
        if (fits) break;
        if (pl->BM == 32) return false;
        pl->BM /= 2;
    }
    const int64_t ci_tiles = (pr.cin_g + pl->BM - 1) / pl->BM;
    const int64_t gx = ci_tiles * a.col_tiles;
    if (gx > 0x7fffffffLL) return false;
    const int64_t tiles_out = gx * p.groups;
    /* Splits: enough blocks to fill the GPU, at least 8 reduction tiles each, within the workspace. */
    int64_t splits = (kTargetBlocks + tiles_out - 1) / tiles_out;
    const int64_t max_by_work = (a.red_tiles + 7) / 8;
    if (splits > max_by_work) splits = max_by_work;
    if (splits > 65535) splits = 65535;
    const size_t per_split = (size_t)a.wnumel * sizeof(float);
    size_t cap = ws_avail < kMaxWorkspace ? ws_avail : kMaxWorkspace;
    if ((int64_t)(cap / per_split) < splits) splits = (int64_t)(cap / per_split);
    if (splits < 2) splits = 1;
    a.splits = (int)splits;
    pl->ws_bytes = splits > 1 ? (size_t)splits * per_split : 0;
    pl->grid = dim3((unsigned)gx, (unsigned)splits, (unsigned)p.groups);
    a.ws = nullptr;
    a.vec_x = 0;
    return true;
}

template <typename K>
cudaError_t prepare(K kern, size_t smem) {
#ifdef CONVT1D_BWD_EMU
    (void)kern;
    (void)smem;
    return cudaSuccess;
#else
    if (smem <= 48 * 1024) return cudaSuccess;
    /* Set on every launch: a per-template cache would be shared by every kernel of the same signature
     * (K is a plain function-pointer type), which left all but the first without the opt-in. */
    cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kMaxSmem);
    return e;
#endif
}

cudaError_t last_error() {
#ifdef CONVT1D_BWD_EMU
    return cudaSuccess;
#else
    return cudaGetLastError();
#endif
}

template <int MODE, int BM, bool PIPE>
cudaError_t launch_input(const bin_plan &pl, const void *gy, const void *w, void *gx, cudaStream_t stream) {
    void (*kern)(const void *, const void *, void *, bin_args) = bwd_input_tc_kernel<MODE, BM, PIPE>;
    cudaError_t e = prepare(kern, pl.smem);
    if (e != cudaSuccess) return e;
    CT_LAUNCH(kern, pl.grid, warp_layout<BM>::THREADS, pl.smem, stream, gy, w, gx, pl.a);
    return last_error();
}

template <int MODE, bool PIPE>
cudaError_t launch_input_bm(const bin_plan &pl, const void *gy, const void *w, void *gx, cudaStream_t stream) {
    if (pl.BM == 32) return launch_input<MODE, 32, PIPE>(pl, gy, w, gx, stream);
    if (pl.BM == 64) return launch_input<MODE, 64, PIPE>(pl, gy, w, gx, stream);
    return launch_input<MODE, 128, PIPE>(pl, gy, w, gx, stream);
}

template <int MODE>
cudaError_t launch_input_mode(const bin_plan &pl, const void *gy, const void *w, void *gx, cudaStream_t stream) {
    if constexpr (MODE == MODE_TF32 || MODE == MODE_3XTF32) {
        if (pl.pipe) return launch_input_bm<MODE, true>(pl, gy, w, gx, stream);
    }
    return launch_input_bm<MODE, false>(pl, gy, w, gx, stream);
}

template <int MODE, int BM, bool PIPE>
cudaError_t launch_weight(const bw_plan &pl, const void *gy, const void *x, void *gw, cudaStream_t stream) {
    void (*kern)(const void *, const void *, void *, bw_args) = bwd_weight_tc_kernel<MODE, BM, PIPE>;
    cudaError_t e = prepare(kern, pl.smem);
    if (e != cudaSuccess) return e;
    CT_LAUNCH(kern, pl.grid, warp_layout<BM>::THREADS, pl.smem, stream, gy, x, gw, pl.a);
    e = last_error();
    if (e != cudaSuccess || pl.a.splits == 1) return e;
    typedef typename mode_traits<MODE>::T T;
    void (*red)(const float *, T *, int64_t, int) = bwd_weight_reduce_kernel<T>;
    const int64_t blocks = (pl.a.wnumel + kThreads - 1) / kThreads;
    CT_LAUNCH(red, dim3((unsigned)blocks), kThreads, 0, stream, (const float *)pl.a.ws, (T *)gw, pl.a.wnumel, pl.a.splits);
    return last_error();
}

template <int MODE, bool PIPE>
cudaError_t launch_weight_bm(const bw_plan &pl, const void *gy, const void *x, void *gw, cudaStream_t stream) {
    if (pl.BM == 32) return launch_weight<MODE, 32, PIPE>(pl, gy, x, gw, stream);
    if (pl.BM == 64) return launch_weight<MODE, 64, PIPE>(pl, gy, x, gw, stream);
    return launch_weight<MODE, 128, PIPE>(pl, gy, x, gw, stream);
}

template <int MODE>
cudaError_t launch_weight_mode(const bw_plan &pl, const void *gy, const void *x, void *gw, cudaStream_t stream) {
    /* 16-bit x tiles stream raw with 16-byte copies, which needs vec_x, and grad_y as aligned 4-byte pairs, which needs
     * grad_y 4-byte aligned (one element into its buffer it read misaligned words: the fuzz, run 271); else the
     * synchronous staging (the pipelined plan's shared memory covers its layout too). */
    if (pl.pipe && (mode_traits<MODE>::EPW == 1 || (pl.a.vec_x && ((uintptr_t)gy & 3) == 0)))
        return launch_weight_bm<MODE, true>(pl, gy, x, gw, stream);
    return launch_weight_bm<MODE, false>(pl, gy, x, gw, stream);
}

} // namespace

convt1d_status convt1d_bwd_input_tc(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                    cudaStream_t stream) {
    bin_plan pl;
    if (mode_of(pr) < 0) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (pr.p.batch == 0) return CONVT1D_SUCCESS; /* grad_x is empty */
    if (!plan_input(pr, &pl)) return CONVT1D_ERROR_NOT_SUPPORTED;
    cudaError_t e;
    switch (mode_of(pr)) {
    case MODE_TF32: e = launch_input_mode<MODE_TF32>(pl, grad_y, w, grad_x, stream); break;
    case MODE_3XTF32: e = launch_input_mode<MODE_3XTF32>(pl, grad_y, w, grad_x, stream); break;
    case MODE_F16: e = launch_input_mode<MODE_F16>(pl, grad_y, w, grad_x, stream); break;
    default: e = launch_input_mode<MODE_BF16>(pl, grad_y, w, grad_x, stream); break;
    }
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "tensor-core backward-input kernel: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_bwd_weight_tc_workspace(const convt1d_problem &pr, size_t *bytes) {
    bw_plan pl;
    if (!plan_weight(pr, (size_t)-1, &pl)) return CONVT1D_ERROR_NOT_SUPPORTED;
    *bytes = pr.p.batch == 0 ? 0 : pl.ws_bytes;
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_bwd_weight_tc(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                     void *workspace, size_t workspace_bytes, cudaStream_t stream) {
    bw_plan pl;
    if (!plan_weight(pr, workspace ? workspace_bytes : 0, &pl)) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (!grad_w) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "grad_w must not be NULL");
    cudaError_t e;
    if (pr.p.batch == 0) { /* empty reduction: grad_w = 0 */
        const size_t bytes = (size_t)pl.a.wnumel * convt1d_dtype_size(pr.dtype);
#ifdef CONVT1D_BWD_EMU
        memset(grad_w, 0, bytes);
        e = cudaSuccess;
#else
        e = cudaMemsetAsync(grad_w, 0, bytes, stream);
#endif
        if (e != cudaSuccess)
            return convt1d_fail(CONVT1D_ERROR_CUDA, "tensor-core backward-weight memset: %s", cudaGetErrorString(e));
        return CONVT1D_SUCCESS;
    }
    pl.a.ws = pl.a.splits > 1 ? static_cast<float *>(workspace) : nullptr;
    const int epw = pr.dtype == CONVT1D_F32 ? 1 : 2;
    pl.a.vec_x = pr.p.in_length % (4 * epw) == 0 && ((uintptr_t)x & 15) == 0;
    switch (mode_of(pr)) {
    case MODE_TF32: e = launch_weight_mode<MODE_TF32>(pl, grad_y, x, grad_w, stream); break;
    case MODE_3XTF32: e = launch_weight_mode<MODE_3XTF32>(pl, grad_y, x, grad_w, stream); break;
    case MODE_F16: e = launch_weight_mode<MODE_F16>(pl, grad_y, x, grad_w, stream); break;
    default: e = launch_weight_mode<MODE_BF16>(pl, grad_y, x, grad_w, stream); break;
    }
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "tensor-core backward-weight kernel: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

void convt1d_bwd_tc_set_pipeline(int enable) { g_pipeline = enable != 0; }
