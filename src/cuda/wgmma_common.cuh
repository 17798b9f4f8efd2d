/* Shared by the Hopper wgmma kernels (fwd_wgmma.cu, bwd_weight_wgmma.cu): operand kinds and element
 * types, the MMA per kind and tile width, mbarrier / TMA / wgmma primitives, the 128-byte-swizzle
 * shared-memory descriptor, and the host-side tensor-map encoder. Every definition sits in an anonymous
 * namespace: each kernel file gets its own copy. */
#pragma once
#include <atomic>

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cudaTypedefs.h>
#include <stdint.h>
#include <stdlib.h>

#include "convt1d.h"
#include "internal.h"
#include "wgmma_ops.cuh"

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CONVT1D_WG_DEVICE 1
#else
#define CONVT1D_WG_DEVICE 0
#endif

/* Programmatic dependent launch (sm_90; launch_big_smem_pdl). pdl_wait: wait until the kernel ahead in the stream
 * has finished and its writes are visible (returns at once in a kernel launched without it). pdl_trigger: this block
 * is done with its writes, so the dependent kernel may be scheduled once every block has said so. No-ops before
 * sm_90. */
__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_trigger() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

namespace {

constexpr int kRow = 128; /* bytes per operand row in shared memory: one 128-byte swizzle span */

/* WG_TF32X3: fp32-accurate (TF32 off): every value split into big + small, both TF32, and
 * D += Xs*Wb + Xb*Ws + Xb*Wb (the small*small term, 2^-22 relative, dropped), as the mma.sync kernel. */
enum { WG_F16 = 0, WG_BF16 = 1, WG_TF32 = 2, WG_TF32X3 = 3 };

/* Element type, conversions and the MMA per kind. TF32 values are rounded (cvt.rna) where they are
 * written to scratch, as the mma.sync kernel rounds its operands. */
template <int TY> struct wg_type;
template <> struct wg_type<WG_F16> {
    typedef __half T;
    static __device__ __forceinline__ float to_f(T v) { return __half2float(v); }
    static __device__ __forceinline__ T from_f(float v) { return __float2half_rn(v); }
    static __device__ __forceinline__ T op(T v) { return v; }
    /* Two outputs, lo first, as one 32-bit word (the register-A forward's position pairs). */
    static __device__ __forceinline__ uint32_t pack2(float lo, float hi) {
        const __half2 v = __floats2half2_rn(lo, hi);
        return *reinterpret_cast<const uint32_t *>(&v);
    }
};
template <> struct wg_type<WG_BF16> {
    typedef __nv_bfloat16 T;
    static __device__ __forceinline__ float to_f(T v) { return __bfloat162float(v); }
    static __device__ __forceinline__ T from_f(float v) { return __float2bfloat16_rn(v); }
    static __device__ __forceinline__ T op(T v) { return v; }
    /* Two outputs, lo first, as one 32-bit word (the register-A forward's position pairs). */
    static __device__ __forceinline__ uint32_t pack2(float lo, float hi) {
        const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
        return *reinterpret_cast<const uint32_t *>(&v);
    }
};
template <> struct wg_type<WG_TF32> {
    typedef float T;
    static __device__ __forceinline__ float to_f(T v) { return v; }
    static __device__ __forceinline__ T from_f(float v) { return v; }
    static __device__ __forceinline__ T op(T v) {
        uint32_t r;
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(v));
        return __uint_as_float(r);
    }
    /* op() in two integer instructions (cvt.rna.tf32 is a five-instruction sequence on sm_90): adding half
     * a TF32 ulp and clearing the 13 low bits rounds to nearest, ties away, as cvt.rna, for every finite
     * value and infinity; a NaN keeps its quiet bit (a NaN whose payload sits only in the 13 low bits,
     * which PyTorch never makes, would turn into infinity; the MMA itself would ignore those bits too). */
    static __device__ __forceinline__ T op_fast(T v) { return __uint_as_float((__float_as_uint(v) + 0x1000u) & 0xffffe000u); }
};
template <> struct wg_type<WG_TF32X3> : wg_type<WG_TF32> {};


/* Row pitch (bytes) for stage_rows_bulk: = row_bytes (mod 16), so that every staged row sits at one offset
 * from a 16-byte boundary; at least span_bytes + 32 (a span's overhang at both ends, spans apart); then
 * target + that residue (mod 128), the nearest to a conflict-free pitch of the dense layout. */
inline int bulk_row_pitch(int64_t row_bytes, int span_bytes, int target) {
    const int want = target + (int)(row_bytes & 15), pmin = span_bytes + 32;
    return pmin + ((want - pmin) % 128 + 128) % 128;
}

#if CONVT1D_WG_DEVICE
__device__ __forceinline__ uint32_t smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
/* The MMA per kind and tile width: wg_mma (A from a shared-memory descriptor) and wg_mma_rs (A from four
 * 32-bit registers per thread), both defined from one list of the generated wrappers. */
template <int TY, int BR> struct wg_mma;
template <int TY, int BR> struct wg_mma_rs;
template <int BR> struct wg_mma<WG_TF32X3, BR> : wg_mma<WG_TF32, BR> {};
template <int BR> struct wg_mma_rs<WG_TF32X3, BR> : wg_mma_rs<WG_TF32, BR> {};
#define CONVT1D_WG_MMA(TY, BR, NAME)                                                                            \
    template <> struct wg_mma<TY, BR> {                                                                         \
        static __device__ __forceinline__ void run(float (&d)[BR / 2], uint64_t da, uint64_t db) {              \
            wgmma_ss_##NAME(d, da, db);                                                                         \
        }                                                                                                       \
    };                                                                                                          \
    template <> struct wg_mma_rs<TY, BR> {                                                                      \
        static __device__ __forceinline__ void run(float (&d)[BR / 2], const uint32_t (&a)[4], uint64_t db) {   \
            wgmma_rs_##NAME(d, a, db);                                                                          \
        }                                                                                                       \
    };
CONVT1D_WG_MMA(WG_F16, 32, f16_n32)
CONVT1D_WG_MMA(WG_F16, 64, f16_n64)
CONVT1D_WG_MMA(WG_F16, 128, f16_n128)
CONVT1D_WG_MMA(WG_F16, 256, f16_n256)
CONVT1D_WG_MMA(WG_BF16, 32, bf16_n32)
CONVT1D_WG_MMA(WG_BF16, 64, bf16_n64)
CONVT1D_WG_MMA(WG_BF16, 128, bf16_n128)
CONVT1D_WG_MMA(WG_BF16, 256, bf16_n256)
CONVT1D_WG_MMA(WG_TF32, 32, tf32_n32)
CONVT1D_WG_MMA(WG_TF32, 64, tf32_n64)
CONVT1D_WG_MMA(WG_TF32, 128, tf32_n128)
CONVT1D_WG_MMA(WG_TF32, 256, tf32_n256)
#undef CONVT1D_WG_MMA
__device__ __forceinline__ void mbar_init(uint32_t bar, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
/* Blocks until the barrier's phase with this parity has completed. The suspend-time hint lets the waiting
 * warp sleep (up to the hint, waking when the phase completes) instead of re-polling: a polling producer
 * warp took a third of its SM sub-partition's issue slots from the consumer warps beside it (run 46: 69M
 * try_wait retries on KernelBench 64). */
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
    asm volatile(
        "{\n.reg .pred done;\n"
        "WAIT_%=:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1, %2;\n"
        "@!done bra WAIT_%=;\n}\n" ::"r"(bar),
        "r"(parity), "n"(1000000)
        : "memory");
}
/* Shared-memory loads by shared-window address: 32-bit address arithmetic, where generic pointers cost a
 * 64-bit add per load (run 46: IADD3.X beside every LD.E of the A fragments). */
__device__ __forceinline__ uint32_t lds_u16(uint32_t addr) {
    unsigned short v;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(addr));
    return v;
}
/* Four 8x8 16-bit matrices, transposed: lane l gives the address of row l % 8 of matrix l / 8 (16 bytes, 16-byte
 * aligned); from rows of channels holding 8 positions each, r0..r3 come out as an m16k16 A fragment (positions x
 * channel pairs), matrix m to r_m. */
__device__ __forceinline__ void ldsm_x4_trans(uint32_t addr, uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(addr));
}
__device__ __forceinline__ uint32_t lds_u32(uint32_t addr) {
    uint32_t v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
}
__device__ __forceinline__ float lds_f32(uint32_t addr) {
    float v;
    asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(addr));
    return v;
}
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const CUtensorMap *map, uint32_t bar, int c0, int c1, int c2) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
                 ::"r"(dst), "l"(map), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
}
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wg_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
/* A store to shared memory by its shared-window address (a generic store would test the window first). */
__device__ __forceinline__ void st_shared(uint32_t addr, float v) { asm volatile("st.shared.f32 [%0], %1;" ::"r"(addr), "f"(v)); }
__device__ __forceinline__ void st_shared(uint32_t addr, __half v) {
    asm volatile("st.shared.b16 [%0], %1;" ::"r"(addr), "h"(__half_as_ushort(v)));
}
__device__ __forceinline__ void st_shared(uint32_t addr, __nv_bfloat16 v) {
    asm volatile("st.shared.b16 [%0], %1;" ::"r"(addr), "h"(__bfloat16_as_ushort(v)));
}
__device__ __forceinline__ void named_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
/* Arrive on named barrier id without waiting: the other threads of its count wait in named_sync. */
__device__ __forceinline__ void named_arrive(int id, int threads) {
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
/* K-major operand with the 128-byte swizzle (layout type 1): 128-byte rows, 8-row groups 1024 B apart
 * (stride byte offset); the leading byte offset is unused for this layout. A k step is 32 bytes along
 * the row (16 16-bit or 8 fp32 values). */
__device__ __forceinline__ uint64_t desc_sw128(uint32_t addr) {
    return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)(16 >> 4) << 16) | ((uint64_t)(1024 >> 4) << 32) |
           (1ull << 62);
}
/* Bulk staging of row windows (the register-A forward's XS_BULK, fwd_wgmma.cu): the rows behind a stage's
 * input boxes. Box row r is tensor row row0 + r (zeros from row valid on: channels past C_in, rows past
 * C_out), its elements e0 + b*ebox .. + wcols in box b. Each sits at byte r*pitch + c0 of its box: pitch =
 * the row length in bytes (mod 16), so every row of the boxes starts at the same offset c0 from a 16-byte
 * boundary, where x has it; pitch >= wcols*es + 32, so that neighbouring rows' spans do not overlap. */
struct RowWin {
    int64_t row0, e0, total; /* total: x's rows (the batch's) */
    int valid, nrows, ebox;
    __device__ uint32_t c0(int L, int es) const { return (uint32_t)(((row0 * L + e0) * es) & 15); }
};

/* One stage's boxes by the producer warpgroup (ptid 0..127), completing on bar (count: one arrival per
 * producer thread + the weights' expect_tx). Inner stages (every window inside its row, the boxes clear
 * of x's last row): thread r sends row r's span [window start rounded down to 16 bytes, end rounded up)
 * by one bulk copy with its own expect_tx + arrival; a span may reach into the neighbouring rows, never
 * out of x. Rows past valid: zeros over the same span. Edge stages: below. Generic stores are followed by
 * a proxy fence: later bulk copies reuse the stage. */
template <int TY>
__device__ __forceinline__ void stage_rows_bulk(const typename wg_type<TY>::T *x, int L, int wcols, int pitch,
                                                uint32_t box0, int xb, int nbox, const RowWin &w, uint32_t bar,
                                                int ptid, int lane) {
    typedef typename wg_type<TY>::T T;
    constexpr int es = (int)sizeof(T);
    const uint32_t c0 = w.c0(L, es);
    const int last = w.nrows < w.valid ? w.nrows : w.valid; /* real rows */
    const bool inner = w.e0 >= 0 && w.e0 + (int64_t)w.ebox * (nbox - 1) + wcols <= L && w.row0 + last < w.total;
    if (inner) {
        uint32_t bytes = 0, dst = 0;
        const char *src = nullptr;
        if (ptid < nbox * w.nrows) {
            const int b = ptid / w.nrows, r = ptid - b * w.nrows;
            const char *w0 = reinterpret_cast<const char *>(x + (w.row0 + r) * L + w.e0 + (int64_t)w.ebox * b);
            const uint32_t dl = (uint32_t)((uintptr_t)w0 & 15);
            src = w0 - dl;
            bytes = (dl + wcols * es + 15) & ~15u;
            dst = box0 + b * xb + r * pitch + c0 - dl; /* 16-byte aligned: dl = c0 + r*pitch (mod 16) */
            if (r >= w.valid) {
                for (uint32_t o = 0; o < bytes; o += 16)
                    asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};" ::"r"(dst + o), "r"(0) : "memory");
                asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
                bytes = 0;
            }
        }
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
        if (bytes)
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                         "l"(src), "r"(bytes), "r"(bar)
                         : "memory");
        return;
    }
    /* Edge stage: warp pw takes rows pw, pw + 4, ...: lane 0 sends the 16-byte-aligned middle of the row's
     * part inside x by a bulk copy (expect_tx without an arrival), the lanes the few elements at its ends
     * by plain loads (a round trip each: element by element, run 73 lost 18-25% on the layers with few
     * tiles per row) and zeros outside the row. */
    const T zero = wg_type<TY>::from_f(0.f);
    for (int rr = ptid >> 5; rr < nbox * w.nrows; rr += 4) {
        const int b = rr / w.nrows, r = rr - b * w.nrows;
        const int64_t e0 = w.e0 + (int64_t)w.ebox * b;
        const T *row = x + (w.row0 + r) * L;
        const uint32_t drow = box0 + b * xb + r * pitch + c0; /* element e0 */
        const int64_t lo = r < w.valid ? (e0 > 0 ? e0 : 0) : 0, hi = r < w.valid ? (e0 + wcols < L ? e0 + wcols : L) : 0;
        int64_t mlo = hi, mhi = hi; /* the bulk-copied elements */
        if (lo < hi) {
            const uintptr_t alo = ((uintptr_t)(row + lo) + 15) & ~(uintptr_t)15, ahi = (uintptr_t)(row + hi) & ~(uintptr_t)15;
            if (ahi > alo) {
                mlo = (int64_t)((const T *)alo - row);
                mhi = (int64_t)((const T *)ahi - row);
                if (lane == 0) {
                    const uint32_t bytes = (uint32_t)(ahi - alo);
                    asm volatile("mbarrier.expect_tx.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
                    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                                     drow + (uint32_t)(mlo - e0) * es),
                                 "l"((const void *)alo), "r"(bytes), "r"(bar)
                                 : "memory");
                }
            }
        }
        for (int e = lane; e < wcols; e += 32) {
            const int64_t pos = e0 + e;
            if (pos >= mlo && pos < mhi) continue;
            st_shared(drow + e * es, pos >= lo && pos < hi ? row[pos] : zero);
        }
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    mbar_arrive(bar);
}
#endif

/* Reads the contiguous segment [o0, o0 + len) of one row (elements [0, Lrow) exist, zero elsewhere) and
 * hands each value to put(i, v) as float, i = o - o0; the block's threads share the work. 16-byte loads
 * where the row is 16-byte aligned (row_vec): the pre-pass kernels are bandwidth-bound, and 2-byte
 * scalar loads left them at a quarter of it (run 30). */
template <int TY, class F>
__device__ __forceinline__ void load_span(const typename wg_type<TY>::T *row, int64_t Lrow, int64_t o0, int len,
                                          bool row_vec, int tid, int nthreads, F put) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T);
    if (!row_vec) {
        for (int i = tid; i < len; i += nthreads) {
            const int64_t o = o0 + i;
            put(i, o >= 0 && o < Lrow ? wg_type<TY>::to_f(row[o]) : 0.f);
        }
        return;
    }
    const int64_t a0 = (o0 >= 0 ? o0 / VE : -((-o0 + VE - 1) / VE)) * VE; /* floor to a 16-byte chunk */
    const int nv = (int)((o0 + len - a0 + VE - 1) / VE);
    for (int v = tid; v < nv; v += nthreads) {
        const int64_t ob = a0 + (int64_t)v * VE;
        union {
            uint4 u;
            T e[VE];
        } c;
        if (ob >= 0 && ob + VE <= Lrow) {
            c.u = *reinterpret_cast<const uint4 *>(row + ob);
        } else {
#pragma unroll
            for (int i = 0; i < VE; ++i) c.e[i] = ob + i >= 0 && ob + i < Lrow ? row[ob + i] : wg_type<TY>::from_f(0.f);
        }
#pragma unroll
        for (int i = 0; i < VE; ++i) {
            const int64_t o = ob + i;
            if (o >= o0 && o < o0 + len) put((int)(o - o0), wg_type<TY>::to_f(c.e[i]));
        }
    }
}

/* Writes VE = 16/sizeof(T) values (TF32-rounded in TF32 mode) at dst, 16-byte aligned, with one store;
 * WG_TF32X3 also the small halves at dst + small_off. */
template <int TY>
__device__ __forceinline__ void store_vec(typename wg_type<TY>::T *dst, const float *v, int64_t small_off) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T);
    union {
        uint4 u;
        T e[VE];
    } big, small;
#pragma unroll
    for (int i = 0; i < VE; ++i) {
        big.e[i] = wg_type<TY>::op(wg_type<TY>::from_f(v[i]));
        if (TY == WG_TF32X3) small.e[i] = wg_type<TY>::op(wg_type<TY>::from_f(v[i] - wg_type<TY>::to_f(big.e[i])));
    }
    *reinterpret_cast<uint4 *>(dst) = big.u;
    if (TY == WG_TF32X3) *reinterpret_cast<uint4 *>(dst + small_off) = small.u;
}

/* ------------------------------------------------------------------ host side */

/* CONVT1D_WGMMA_PLANES_UNITS=0 (read at every call; A/B, tests): grad_y's phase planes always by the general kernels
 * (grad_input's transposed planes in fwd_wgmma.cu, grad_weight's planes in bwd_weight_wgmma.cu), not the unit
 * transposes. */
inline bool planes_units_off() {
    const char *v = convt1d_env("CONVT1D_WGMMA_PLANES_UNITS");
    return v && v[0] == '0';
}

/* Bytes per unit where grad_y's phase planes are a transpose of whole units (Session 14): one plane position of one
 * channel, s values of es bytes, is 16 or 32 bytes and starts 8-byte aligned (p*es, L_out*es and grad_y's address
 * multiples of 8); else 0 (and with CONVT1D_WGMMA_PLANES_UNITS=0). The one rule for both unit kernels and for the
 * grad_input path choice that counts on them (rs_bi_pays). */
inline int plane_unit_bytes(int64_t s, int es, int64_t p, int64_t L_out, const void *gy) {
    const int64_t su = s * es;
    if ((su != 16 && su != 32) || (p * es) % 8 != 0 || (L_out * es) % 8 != 0 || ((uintptr_t)gy & 7) != 0)
        return 0;
    return planes_units_off() ? 0 : (int)su;
}

/* The operand kind of a problem's dtype and math mode; -1 for dtypes the wgmma kernels do not take. */
inline int wg_kind(convt1d_dtype dtype, convt1d_math math) {
    if (dtype == CONVT1D_F16) return WG_F16;
    if (dtype == CONVT1D_BF16) return WG_BF16;
    if (dtype == CONVT1D_F32) return math == CONVT1D_MATH_ALLOW_TF32 ? WG_TF32 : WG_TF32X3;
    return -1;
}

PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
    static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
    static bool tried = false;
    if (!tried) {
        tried = true;
        void *p = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) ==
                cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = (PFN_cuTensorMapEncodeTiled_v12000)p;
        else
            cudaGetLastError();
    }
    return fn;
}

/* 3D tiled map over data [d2][d1][d0] (d0 contiguous, es-byte elements; rows `pitch` elements apart,
 * d0 when 0), box b0 x b1 x b2, 128-byte swizzle (or none: the box lands densely, b0 elements per row);
 * boxes reaching outside the tensor are zero-filled. */
bool make_map(CUtensorMap *m, const void *base, int es, uint64_t d0, uint64_t d1, uint64_t d2, uint32_t b0,
              uint32_t b1, uint32_t b2, uint64_t pitch = 0, bool swizzle = true, uint64_t pitch2 = 0) {
    PFN_cuTensorMapEncodeTiled_v12000 fn = encode_fn();
    if (!fn) return false;
    if (pitch == 0) pitch = d0;
    if (pitch2 == 0) pitch2 = pitch * d1; /* elements between dimension-2 slices (a group's view: more than d1 rows) */
    const cuuint64_t dims[3] = {d0, d1, d2};
    const cuuint64_t strides[2] = {pitch * es, pitch2 * es};
    const cuuint32_t box[3] = {b0, b1, b2};
    const cuuint32_t est[3] = {1, 1, 1};
    return fn(m, es == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16 : CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, const_cast<void *>(base),
              dims, strides, box, est, CU_TENSOR_MAP_INTERLEAVE_NONE,
              swizzle ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/* Rows whose pitch (row_bytes) is not a 16-byte multiple cannot be TMA rows one by one; xg consecutive rows
 * can, xg = 16 / (the largest power of two dividing row_bytes mod 16), 1 where the pitch already is one.
 * The group map (Session 18) treats the xg rows of a group as one row of xg*L elements: rows rows/xg of them
 * per sample (rows a multiple of xg), N samples; box b_cols x b_rows, no swizzle; the rows of a box are rows
 * m + xg*j of the data for the box that starts m*L columns in (at a 16-byte column: a box must). */
inline int tma_row_group(int64_t row_bytes) {
    const int rb = (int)(row_bytes % 16);
    return rb ? 16 / (rb & -rb) : 1;
}
bool make_group_map(CUtensorMap *m, const void *base, int es, int64_t L, int64_t rows, int64_t N, int xg,
                    uint32_t b_cols, uint32_t b_rows, int64_t sample_elems = 0) {
    return make_map(m, base, es, (uint64_t)(xg * L), (uint64_t)(rows / xg), (uint64_t)N, b_cols, b_rows, 1, 0, false,
                    (uint64_t)sample_elems);
}

/* Whether this library was built with sm_90a code for Kern (the wgmma kernels exist only there; elsewhere
 * the host must not launch them). Asked once per kernel and process. */
template <auto Kern> bool sm90a_built() {
    static int built = -1;
    if (built < 0) {
        cudaFuncAttributes fa;
        built = cudaFuncGetAttributes(&fa, Kern) == cudaSuccess && fa.ptxVersion >= 90 && fa.binaryVersion == 90;
        cudaGetLastError();
    }
    return built == 1;
}

/* Splits of a flat reduction of `chunks` stages run by `tiles` blocks each: the count in [1, max_splits]
 * whose blocks fill the SMs' waves best, each split keeping at least min_chunks stages and the grid at most
 * max_blocks blocks. A function of the problem and the SM count only (fixed splits: deterministic sums). */
inline int pick_splits(int64_t tiles, int64_t chunks, int sms, int max_splits, int64_t min_chunks, int64_t max_blocks) {
    int best = 1;
    double best_t = 1e30;
    for (int sp = 1; sp <= max_splits && chunks / sp >= min_chunks && tiles * sp <= max_blocks; ++sp) {
        const double t = (double)((tiles * sp + sms - 1) / sms) / sp; /* waves x work per block */
        if (t < best_t * 0.97) {
            best_t = t;
            best = sp;
        }
    }
    return best;
}

/* Launch a Hopper kernel that takes up to kWgMaxSmem bytes of dynamic shared memory: the opt-in limit is
 * raised once per kernel (per instantiation of this template) and per device. pdl: as a programmatic dependent
 * launch (sm_90): the kernel may start while the one ahead of it in the stream finishes, and must call pdl_wait()
 * before it reads what that kernel wrote. */
constexpr int kWgMaxSmem = 227 * 1024;
template <auto Kern, class... Args>
cudaError_t launch_big_smem_pdl(dim3 grid, int threads, int smem, cudaStream_t stream, bool pdl, const Args &...args) {
    /* The opt-in belongs to the device's context: once per device (one flag for the process left a second GPU's
     * launches without it, and so failing). Devices past 64 set it at every launch. */
    static std::atomic<uint64_t> attr_set{0};
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return cudaGetLastError();
    const uint64_t bit = dev < 64 ? 1ull << dev : 0;
    if (!bit || !(attr_set.load(std::memory_order_relaxed) & bit)) {
        const cudaError_t e = cudaFuncSetAttribute(Kern, cudaFuncAttributeMaxDynamicSharedMemorySize, kWgMaxSmem);
        if (e != cudaSuccess) return e;
        attr_set.fetch_or(bit, std::memory_order_relaxed);
    }
    if (!pdl) {
        Kern<<<grid, threads, smem, stream>>>(args...);
        return cudaGetLastError();
    }
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = dim3((unsigned)threads);
    cfg.dynamicSmemBytes = (size_t)smem;
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, Kern, args...);
}
template <auto Kern, class... Args>
cudaError_t launch_big_smem(dim3 grid, int threads, int smem, cudaStream_t stream, const Args &...args) {
    return launch_big_smem_pdl<Kern>(grid, threads, smem, stream, false, args...);
}

}  // namespace
