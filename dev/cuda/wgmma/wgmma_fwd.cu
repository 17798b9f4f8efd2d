/* Hopper wgmma prototype of the STRIDE-1 transposed-convolution forward (dev only; not in the product).
 *
 *   y[n, co, o] = bias[co] + sum_{ci, k} x[n, ci, o + p - k*d] * w[ci, co, k],  0 <= o + p - k*d < L_in
 *   L_out = L_in - 2p + d*(K-1);  groups 1, stride 1; x [N,Cin,L_in], w [Cin,Cout,K], y [N,Cout,L_out].
 *
 * Implicit GEMM on wgmma.mma_async (sm_90a): M = Cout (64 rows per consumer warpgroup), N = output
 * positions, reduction = Cin chunks x K taps. Persistent blocks, one per SM; warp-specialized:
 *  - 1 producer warpgroup: per stage (one chunk of 64 bytes of channels = 32 bf16 / 16 fp32 of one
 *    tile) it cp.async's the pre-packed weights of all K taps (canonical no-swizzle K-major image,
 *    [tap][16B group][row][16B], made per call by pack_kernel) and stages the input window
 *    X[chunk, i0 .. i0 + wcols) TRANSPOSED: [group][column][16 bytes = 8 bf16 / 4 fp32 channels].
 *    The transpose is done in registers (16-byte global loads of E rows x E columns, byte_perm for bf16),
 *    then 16-byte shared stores; a tap k is the same window shifted by (K-1-k)*d columns = a 16*(K-1-k)*d
 *    byte move of the B descriptor's start address, so the window is staged once per chunk.
 *  - 1 or 2 consumer warpgroups: K * 2 wgmma (m64 nNW k16 bf16 / k8 tf32) per stage, f32 accumulators in
 *    registers; epilogue: bias, convert, staged through shared memory, 16-byte coalesced stores along o
 *    (any row alignment: a per-row element shift, scalar head/tail).
 *  - Synchronization: named hardware barriers only (bar.sync / bar.arrive, FULL and EMPTY per stage),
 *    no software spin loops; wgmma.commit_group / wait_group(1) releases the previous stage.
 *
 * Build (see run.sh):  nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -Iinclude -Isrc/core \
 *     -Isrc/cuda dev/cuda/wgmma/wgmma_fwd.cu src/cuda/fwd_tc.cu src/core/params.c -o wgmma_fwd
 * The product kernel (convt1d_fwd_tc_cfg, heuristic pick) is linked only for comparison.
 *
 * Usage: wgmma_fwd [check|bench|all]. Lines starting with RES, / TIME, are machine-readable. */
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <type_traits>
#include <functional>
#include <vector>

#include "fwd_tc.cuh"

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, \
                    __LINE__, #x);                                                              \
            exit(2);                                                                            \
        }                                                                                       \
    } while (0)

namespace wg {

constexpr int GROUPS = 4; /* 16-byte channel groups per stage: 64 bytes of reduction per stage */

struct Params {
    const void *x;
    const uint4 *wp;
    const void *bias;
    void *y;
    int N, Cin, Cout, L_in, L_out, K, d, p;
    int nch, co_tiles, q_tiles, ntiles;
    int s0, wcols, Wp;
    int a_bytes, raw_bytes, b_bytes, stage_bytes, S, c_off;
    int raw_off, b_off, rs; /* offsets in a stage entry; raw row stride (bytes) */
    int aligned; /* x rows 16-byte aligned (L_in % E == 0, x aligned): 16-byte loads */
    int swap;    /* descriptor LBO/SBO exchanged (calibration switch; 0 is the PTX ISA's definition) */
    int nomma;   /* diagnostics: skip the wgmma (times the data movement alone; output is wrong) */
};

/* ------------------------------------------------------------------------------------------------ */
/* PTX helpers                                                                                      */
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
/* Shared-memory matrix descriptor, no swizzle (layout type 0), base offset 0:
 * bits 0-13 start address >> 4, 16-29 leading (K-direction) byte offset >> 4,
 * 32-45 stride (M/N-direction) byte offset >> 4. */
__device__ __forceinline__ uint64_t make_desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    return (uint64_t)((addr >> 4) & 0x3FFF) | ((uint64_t)((lbo >> 4) & 0x3FFF) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3FFF) << 32);
}
__device__ __forceinline__ void bar_sync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }
/* 16 bytes, zero-filled when src_bytes == 0 */
__device__ __forceinline__ void cp_async16_zfill(uint32_t dst, const void *src, uint32_t src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_dyn(int n) { /* wait until at most n groups are pending (n <= 2) */
    if (n <= 0) asm volatile("cp.async.wait_group 0;" ::: "memory");
    else if (n == 1) asm volatile("cp.async.wait_group 1;" ::: "memory");
    else asm volatile("cp.async.wait_group 2;" ::: "memory");
}
__device__ __forceinline__ uint4 ld_shared_v4(uint32_t a) {
    uint4 v;
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a) : "memory");
    return v;
}
__device__ __forceinline__ void prefetch_l2(const void *p, uint32_t bytes) {
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
}
__device__ __forceinline__ void st_shared_v4(uint32_t a, uint4 v) {
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}
__device__ __forceinline__ uint32_t to_tf32(uint32_t v) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(__uint_as_float(v)));
    return r;
}
template <int N> __device__ __forceinline__ void fence_acc(float (&d)[N]) {
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

/* ---- generated wgmma wrappers (dev/cuda/wgmma: python generator inlined here as text) ---------- */
__device__ __forceinline__ void wgmma_bf16_n128(float (&d)[64], uint64_t da, uint64_t db) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
        "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
        :
          "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db) : "memory");
}
__device__ __forceinline__ void wgmma_bf16_n256(float (&d)[128], uint64_t da, uint64_t db) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
        "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
        :
          "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
          "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db) : "memory");
}
__device__ __forceinline__ void wgmma_tf32_n128(float (&d)[64], uint64_t da, uint64_t db) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
        "}, %64, %65, p, 1, 1;\n}\n"
        :
          "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db) : "memory");
}
__device__ __forceinline__ void wgmma_tf32_n256(float (&d)[128], uint64_t da, uint64_t db) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
        "}, %128, %129, p, 1, 1;\n}\n"
        :
          "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
          "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
          "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
          "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
          "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db) : "memory");
}

template <bool TF32, int NW> __device__ __forceinline__ void wgmma_op(float (&d)[NW / 2], uint64_t a, uint64_t b) {
    if constexpr (TF32) {
        if constexpr (NW == 256) wgmma_tf32_n256(d, a, b);
        else wgmma_tf32_n128(d, a, b);
    } else {
        if constexpr (NW == 256) wgmma_bf16_n256(d, a, b);
        else wgmma_bf16_n128(d, a, b);
    }
}

/* 16 bytes of output elements [h, h + E) out of the 2E elements in (lo, hi); H is a compile-time shift. */
template <bool TF32, int H> __device__ __forceinline__ uint4 shift_h(uint4 lo, uint4 hi) {
    const uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    uint32_t r[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        if constexpr (TF32) r[i] = w[i + H];
        else if constexpr (H % 2 == 0) r[i] = w[i + H / 2];
        else r[i] = __funnelshift_r(w[i + H / 2], w[i + H / 2 + 1], 16);
    }
    return make_uint4(r[0], r[1], r[2], r[3]);
}
template <bool TF32> __device__ __forceinline__ uint4 shift_elems(uint4 lo, uint4 hi, int h) {
    switch (h) {
    case 0: return lo;
    case 1: return shift_h<TF32, 1>(lo, hi);
    case 2: return shift_h<TF32, 2>(lo, hi);
    case 3: return shift_h<TF32, 3>(lo, hi);
    }
    if constexpr (!TF32) {
        switch (h) {
        case 4: return shift_h<false, 4>(lo, hi);
        case 5: return shift_h<false, 5>(lo, hi);
        case 6: return shift_h<false, 6>(lo, hi);
        case 7: return shift_h<false, 7>(lo, hi);
        }
    }
    return lo;
}

/* ------------------------------------------------------------------------------------------------ */
/* Weight pack: wp[cot][chunk][tap][group][row BM][E] (16 bytes per (group,row)) = the A operand's      */
/* canonical no-swizzle K-major image of one stage. Zero outside Cin / Cout; tf32 pre-rounded.          */
template <bool TF32, int BM>
__global__ void pack_kernel(const void *__restrict__ w, void *__restrict__ wp, int Cin, int Cout, int K, int nch,
                            int64_t total) {
    constexpr int E = TF32 ? 4 : 8;
    constexpr int BK = GROUPS * E;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total;
         idx += (int64_t)gridDim.x * blockDim.x) {
        int64_t t = idx;
        const int e = (int)(t % E); t /= E;
        const int r = (int)(t % BM); t /= BM;
        const int g = (int)(t % GROUPS); t /= GROUPS;
        const int k = (int)(t % K); t /= K;
        const int c = (int)(t % nch); t /= nch;
        const int cot = (int)t;
        const int ci = c * BK + g * E + e, co = cot * BM + r;
        const bool ok = ci < Cin && co < Cout;
        const int64_t src = ((int64_t)ci * Cout + co) * K + k;
        if (TF32) ((uint32_t *)wp)[idx] = ok ? to_tf32(((const uint32_t *)w)[src]) : 0u;
        else ((uint16_t *)wp)[idx] = ok ? ((const uint16_t *)w)[src] : (uint16_t)0;
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Producer: one stage's input window, transposed. Unit = (16-byte group g, column group cg):          */
/* E rows (channels) x E columns; lanes: g = u & 3, cg = u >> 2 (8 lanes of a store phase hit 8 banks:  */
/* Wp = 2 mod 8 and, for bf16, odd cg store their columns in pair-swapped order).                      */
template <bool TF32>
__device__ __forceinline__ void store_unit(const Params &P, uint32_t sb, int uu, const uint4 (&v)[TF32 ? 4 : 8]) {
    const int g = uu & 3, cg = uu >> 2;
    if constexpr (TF32) {
        const uint32_t dst = sb + (uint32_t)(g * P.Wp + cg * 4) * 16u;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            auto comp = [&](const uint4 &q) { return c == 0 ? q.x : c == 1 ? q.y : c == 2 ? q.z : q.w; };
            st_shared_v4(dst + c * 16, make_uint4(to_tf32(comp(v[0])), to_tf32(comp(v[1])), to_tf32(comp(v[2])),
                                                  to_tf32(comp(v[3]))));
        }
    } else {
        const uint32_t par = (uint32_t)(cg & 1);
        const uint32_t sel_lo = par ? 0x7632u : 0x5410u, sel_hi = par ? 0x5410u : 0x7632u;
        const uint32_t dst = sb + (uint32_t)(g * P.Wp + cg * 8) * 16u;
#pragma unroll
        for (int cc = 0; cc < 8; ++cc) {
            const uint32_t sel = (cc & 1) ? sel_hi : sel_lo;
            auto comp = [&](const uint4 &q) {
                const int m = cc >> 1;
                return m == 0 ? q.x : m == 1 ? q.y : m == 2 ? q.z : q.w;
            };
            uint4 o;
            o.x = __byte_perm(comp(v[0]), comp(v[1]), sel);
            o.y = __byte_perm(comp(v[2]), comp(v[3]), sel);
            o.z = __byte_perm(comp(v[4]), comp(v[5]), sel);
            o.w = __byte_perm(comp(v[6]), comp(v[7]), sel);
            st_shared_v4(dst + (uint32_t)(cc ^ par) * 16u, o);
        }
    }
}

/* Tile / chunk of the j-th stage of this block (the persistent block's sequence). */
struct StageIdx {
    int t, c, cot, n, i0a;
};
template <int BQ>
__device__ __forceinline__ StageIdx stage_idx(const Params &P, int j, int KD) {
    StageIdx r;
    r.t = blockIdx.x + (j / P.nch) * gridDim.x;
    r.c = j % P.nch;
    r.cot = r.t % P.co_tiles;
    const int rest = r.t / P.co_tiles;
    r.n = rest / P.q_tiles;
    r.i0a = (rest % P.q_tiles) * BQ + P.p - KD - P.s0;
    return r;
}

/* Producer, asynchronous part of stage j: the packed weights (A image) and, on the aligned path, the raw
 * input window rows [BK][wcols] (row stride rs, each 8-row (bf16) / 4-row (tf32) group skewed by 32 bytes
 * so that the transposing reads are conflict-free), zero-filled outside the tensor. One commit group. */
template <bool TF32, int BQ>
__device__ __forceinline__ void issue_stage(const Params &P, uint32_t entry, int j, int KD, int ptid) {
    constexpr int E = TF32 ? 4 : 8;
    constexpr int ES = TF32 ? 4 : 2;
    constexpr int BK = GROUPS * E;
    const StageIdx s = stage_idx<BQ>(P, j, KD);
    if (s.t < P.ntiles) {
        const char *ga = (const char *)P.wp + ((int64_t)s.cot * P.nch + s.c) * P.a_bytes;
        for (int off = ptid * 16; off < P.a_bytes; off += 128 * 16) cp_async16(entry + off, ga + off);
        if (P.aligned) {
            const int ncg = P.wcols / E;
            const int64_t rstride = (int64_t)P.L_in * ES;
            const char *xn = (const char *)P.x + (int64_t)s.n * P.Cin * rstride;
            const uint32_t raw = entry + P.raw_off;
            const int ci0 = s.c * BK;
#pragma unroll 4
            for (int q = ptid; q < BK * ncg; q += 128) {
                const int row = q / ncg, cg = q - row * ncg;
                const int col = s.i0a + cg * E;
                const bool ok = ci0 + row < P.Cin && col >= 0 && col < P.L_in;
                const char *src = ok ? xn + (int64_t)(ci0 + row) * rstride + (int64_t)col * ES : (const char *)P.x;
                cp_async16_zfill(raw + row * P.rs + (row / E) * 32 + cg * 16, src, ok ? 16u : 0u);
            }
        }
    }
    cp_async_commit();
}

/* Producer, synchronous part of stage j: the transposed B image from the raw rows (aligned path), or
 * straight from global memory element by element (any alignment: small / odd shapes). */
template <bool TF32>
__device__ __forceinline__ void transpose_stage(const Params &P, uint32_t entry, int n, int ci0, int i0a, int ptid) {
    constexpr int E = TF32 ? 4 : 8;
    constexpr int ES = TF32 ? 4 : 2;
    const uint32_t sb = entry + P.b_off;
    const int ncg = P.wcols / E;
    const int units = GROUPS * ncg;
    if (P.aligned) {
        const uint32_t raw = entry + P.raw_off;
#pragma unroll 2
        for (int uu = ptid; uu < units; uu += 128) {
            const int g = uu & 3, cg = uu >> 2;
            const uint32_t src = raw + (uint32_t)(g * E * P.rs + g * 32 + cg * 16);
            uint4 v[E];
#pragma unroll
            for (int r = 0; r < E; ++r) v[r] = ld_shared_v4(src + r * P.rs);
            store_unit<TF32>(P, sb, uu, v);
        }
    } else {
        const int64_t rstride = (int64_t)P.L_in * ES;
        const char *xn = (const char *)P.x + (int64_t)n * P.Cin * rstride;
        const int cols = P.wcols;
#pragma unroll 1
        for (int e = ptid; e < GROUPS * cols; e += 128) {
            const int g = e / cols, cl = e % cols; /* consecutive threads: consecutive columns (coalesced) */
            const int i = i0a + cl;
            const bool colok = i >= 0 && i < P.L_in;
            const uint32_t dst = sb + (uint32_t)(g * P.Wp + cl) * 16u;
#pragma unroll 4
            for (int r = 0; r < E; ++r) {
                const int ci = ci0 + g * E + r;
                const char *src = xn + (int64_t)ci * rstride + (int64_t)i * ES;
                if constexpr (TF32) {
                    const uint32_t v = colok && ci < P.Cin ? to_tf32(__ldg((const uint32_t *)src)) : 0u;
                    asm volatile("st.shared.b32 [%0], %1;" ::"r"(dst + r * 4), "r"(v) : "memory");
                } else {
                    const unsigned short v = colok && ci < P.Cin ? __ldg((const unsigned short *)src) : (unsigned short)0;
                    asm volatile("st.shared.b16 [%0], %1;" ::"r"(dst + r * 2), "h"(v) : "memory");
                }
            }
        }
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Barriers: 1..S FULL (producer arrives, consumers sync), S+1..2S EMPTY (consumers arrive, producer
 * syncs), 2S+1.. one per consumer warpgroup (epilogue), 15: producer warpgroup only. */
constexpr int BAR_PRODUCER = 15;

template <bool TF32, int WM, int WN, int NW>
__global__ void __launch_bounds__((WM * WN + 1) * 128, 1) wg_fwd_kernel(const __grid_constant__ Params P) {
    using OutT = std::conditional_t<TF32, float, __nv_bfloat16>;
    constexpr int E = TF32 ? 4 : 8;
    constexpr int ES = TF32 ? 4 : 2;
    constexpr int BK = GROUPS * E;
    constexpr int BM = 64 * WM, BQ = NW * WN;
    constexpr int NCW = WM * WN;
    constexpr int NT = (NCW + 1) * 128;
    constexpr int HW = NW / 2;  /* the epilogue stages half of a warpgroup's columns at a time */
    constexpr int CST = HW + 8; /* C tile row stride (elements): conflict-free fragment writes */
    constexpr int NACC = NW / 2;

    extern __shared__ __align__(1024) unsigned char smem[];
    const int tid = threadIdx.x;
    const int wgi = tid / 128;
    const int S = P.S;
    const int KD = (P.K - 1) * P.d;
    const uint32_t sbase = smem_u32(smem);
    /* stages of this block: tiles blockIdx.x, +gridDim.x, ... times nch chunks */
    const int my_tiles = P.ntiles > (int)blockIdx.x ? (P.ntiles - 1 - (int)blockIdx.x) / (int)gridDim.x + 1 : 0;
    const int total = my_tiles * P.nch;

    if (wgi == NCW) {
        /* ---------------- producer ---------------- */
        const int ptid = tid - NCW * 128;
        for (int j = 0; j < S - 1; ++j) issue_stage<TF32, BQ>(P, sbase + (uint32_t)((j % S) * P.stage_bytes), j, KD, ptid);
        for (int j = 0; j < total; ++j) {
            const int st = j % S;
            const uint32_t entry = sbase + (uint32_t)(st * P.stage_bytes);
            cp_async_wait_dyn(S - 2); /* stage j's group has landed (S-2 younger ones may be in flight) */
            bar_sync(BAR_PRODUCER, 128);
            const StageIdx si = stage_idx<BQ>(P, j, KD);
            transpose_stage<TF32>(P, entry, si.n, si.c * BK, si.i0a, ptid);
            fence_proxy_async();
            bar_arrive(1 + st, NT);
            /* refill the entry of stage j-1 with stage j+S-1 once the consumers are done with it */
            if (j >= 1) bar_sync(1 + S + (j - 1) % S, NT);
            issue_stage<TF32, BQ>(P, sbase + (uint32_t)(((j + S - 1) % S) * P.stage_bytes), j + S - 1, KD, ptid);
        }
        if (total >= 1) bar_sync(1 + S + (total - 1) % S, NT); /* match the consumers' last EMPTY arrival */
        cp_async_wait_dyn(0);
        return;
    }

    /* ---------------- consumers ---------------- */
    const int wm = wgi % WM, wn = wgi / WM;
    const int warp = (tid / 32) % 4, lane = tid % 32;
    const uint32_t lboA = BM * 16, lboB = (uint32_t)P.Wp * 16;
    const uint32_t la = P.swap ? 128u : lboA, sa_ = P.swap ? lboA : 128u;
    const uint32_t lb = P.swap ? 128u : lboB, sb_ = P.swap ? lboB : 128u;
    OutT *Cs = (OutT *)(smem + P.c_off) + wgi * 64 * CST;
    float acc[NACC];
    int it = 0;
    for (int t = blockIdx.x; t < P.ntiles; t += gridDim.x) {
        const int cot = t % P.co_tiles;
        const int rest = t / P.co_tiles;
        const int qt = rest % P.q_tiles;
        const int n = rest / P.q_tiles;
#pragma unroll
        for (int i = 0; i < NACC; ++i) acc[i] = 0.f;
        fence_acc(acc);
        for (int c = 0; c < P.nch; ++c, ++it) {
            const int st = it % S;
            bar_sync(1 + st, NT);
            const uint32_t a0 = sbase + (uint32_t)(st * P.stage_bytes) + wm * 1024;
            const uint32_t b0 = sbase + (uint32_t)(st * P.stage_bytes + P.b_off) + (uint32_t)(P.s0 + KD + wn * NW) * 16u;
            wgmma_fence();
#pragma unroll 1
            for (int k = 0; k < (P.nomma ? 0 : P.K); ++k) {
#pragma unroll
                for (int ks = 0; ks < 2; ++ks) {
                    const uint32_t aa = a0 + (uint32_t)((k * GROUPS + 2 * ks) * BM * 16);
                    const uint32_t bb = b0 - (uint32_t)(k * P.d * 16) + (uint32_t)(2 * ks) * lboB;
                    wgmma_op<TF32, NW>(acc, make_desc(aa, la, sa_), make_desc(bb, lb, sb_));
                }
            }
            wgmma_commit();
            wgmma_wait<1>();
            if (c > 0) bar_arrive(1 + S + (it - 1) % S, NT);
        }
        wgmma_wait<0>();
        fence_acc(acc);
        bar_arrive(1 + S + (it - 1) % S, NT);

        /* ---- epilogue: bias + convert into the warpgroup's C tile (half the columns at a time), then
         * 16-byte row stores (per-row element shift for any alignment, scalar head / tail) ---- */
        const int co0 = cot * BM + wm * 64;
        const int r0 = warp * 16 + lane / 4;
        float bia = 0.f, bib = 0.f;
        if (P.bias) {
            const OutT *bp = (const OutT *)P.bias;
            if (co0 + r0 < P.Cout) bia = (float)bp[co0 + r0];
            if (co0 + r0 + 8 < P.Cout) bib = (float)bp[co0 + r0 + 8];
        }
#pragma unroll
        for (int hf = 0; hf < 2; ++hf) {
#pragma unroll
            for (int jj = 0; jj < HW / 8; ++jj) {
                const int j = hf * (HW / 8) + jj;
                const int col = 8 * jj + 2 * (lane % 4);
                if constexpr (TF32) {
                    *(float2 *)(Cs + r0 * CST + col) = make_float2(acc[4 * j] + bia, acc[4 * j + 1] + bia);
                    *(float2 *)(Cs + (r0 + 8) * CST + col) = make_float2(acc[4 * j + 2] + bib, acc[4 * j + 3] + bib);
                } else {
                    *(__nv_bfloat162 *)(Cs + r0 * CST + col) =
                        __floats2bfloat162_rn(acc[4 * j] + bia, acc[4 * j + 1] + bia);
                    *(__nv_bfloat162 *)(Cs + (r0 + 8) * CST + col) =
                        __floats2bfloat162_rn(acc[4 * j + 2] + bib, acc[4 * j + 3] + bib);
                }
            }
            bar_sync(1 + 2 * S + wgi, 128);
            const int ob = qt * BQ + wn * NW + hf * HW;
            const int valid = min(HW, P.L_out - ob);
            constexpr int LPR = (HW / E) < 32 ? (HW / E) : 32; /* lanes per row */
            constexpr int RPI = 32 / LPR;                      /* rows per warp iteration */
            if (valid > 0) {
#pragma unroll 1
                for (int r = warp * RPI + lane / LPR; r < 64; r += 4 * RPI) {
                    const int co = co0 + r;
                    if (co >= P.Cout) continue;
                    OutT *grow = (OutT *)P.y + ((int64_t)n * P.Cout + co) * P.L_out + ob;
                    int h = (int)(((16u - ((uint32_t)(uintptr_t)grow & 15u)) & 15u) / ES);
                    if (h > valid) h = valid;
                    const int nvec = (valid - h) / E;
                    const OutT *crow = Cs + r * CST;
                    for (int v = lane % LPR; v < nvec; v += LPR) {
                        const uint4 lo = *(const uint4 *)(crow + v * E);
                        const uint4 hi = *(const uint4 *)(crow + v * E + E);
                        *(uint4 *)(grow + h + v * E) = shift_elems<TF32>(lo, hi, h);
                    }
                    const int tail0 = h + nvec * E;
                    const int nsc = h + (valid - tail0);
                    for (int e = lane % LPR; e < nsc; e += LPR) {
                        const int idx = e < h ? e : tail0 + (e - h);
                        grow[idx] = crow[idx];
                    }
                }
            }
            bar_sync(1 + 2 * S + wgi, 128); /* C tile free again */
        }
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Host launcher                                                                                    */
struct Problem {
    int64_t N, Cin, Cout, L_in, K, d, p, stride = 1, groups = 1;
};
enum { OK = 0, REFUSED = 1, CUDA_ERR = 2 };
static char g_reason[256];

struct Cfg {
    bool tf32;
    int wm, wn, nw;
};
/* The instantiated configurations. */
static const Cfg kCfgs[] = {{false, 2, 1, 256}, {false, 1, 2, 256}, {false, 1, 2, 128}, {false, 2, 1, 128},
                            {true, 2, 1, 128},  {true, 1, 2, 128},  {true, 2, 1, 256}};
static const int kNumCfgs = sizeof kCfgs / sizeof kCfgs[0];

static int64_t out_len(const Problem &pr) { return pr.L_in - 2 * pr.p + pr.d * (pr.K - 1); }

/* Picks a configuration for a dtype (index into kCfgs). */
static int auto_cfg(const Problem &pr, bool tf32) {
    if (!tf32) return pr.Cout <= 64 ? 1 : 0;
    return pr.Cout <= 64 ? 5 : 4;
}

static int g_sms = 0, g_smem_optin = 0, g_nomma = 0;
static void *g_wp = nullptr;
static size_t g_wp_bytes = 0;

template <bool TF32, int WM, int WN, int NW>
static int launch_t(const Problem &pr, const void *x, const void *w, const void *bias, void *y, cudaStream_t stream,
                    int swap) {
    constexpr int E = TF32 ? 4 : 8;
    constexpr int ES = TF32 ? 4 : 2;
    constexpr int BK = GROUPS * E;
    constexpr int BM = 64 * WM, BQ = NW * WN, NCW = WM * WN;
    auto kern = wg_fwd_kernel<TF32, WM, WN, NW>;
    const int64_t L_out = out_len(pr);
    const int64_t KD = (pr.K - 1) * pr.d;
    Params P;
    P.x = x;
    P.bias = bias;
    P.y = y;
    P.N = (int)pr.N;
    P.Cin = (int)pr.Cin;
    P.Cout = (int)pr.Cout;
    P.L_in = (int)pr.L_in;
    P.L_out = (int)L_out;
    P.K = (int)pr.K;
    P.d = (int)pr.d;
    P.p = (int)pr.p;
    P.s0 = (int)((((pr.p - KD) % E) + E) % E);
    P.wcols = (int)((P.s0 + BQ + KD + E - 1) / E * E);
    const int target = TF32 ? 1 : 2; /* Wp mod 8: conflict-free transposed stores */
    P.Wp = P.wcols + ((target - P.wcols % 8) % 8 + 8) % 8;
    P.nch = (int)((pr.Cin + BK - 1) / BK);
    P.co_tiles = (int)((pr.Cout + BM - 1) / BM);
    P.q_tiles = (int)((L_out + BQ - 1) / BQ);
    P.aligned = (pr.L_in % E == 0) && ((uintptr_t)x % 16 == 0);
    P.a_bytes = (int)(pr.K * GROUPS * BM * 16);
    P.rs = P.wcols * ES;
    P.raw_bytes = P.aligned ? (BK * P.rs + 128 + 127) / 128 * 128 : 0;
    P.b_bytes = GROUPS * P.Wp * 16;
    P.raw_off = (P.a_bytes + 127) / 128 * 128;
    P.b_off = P.raw_off + P.raw_bytes;
    P.stage_bytes = (P.b_off + P.b_bytes + 127) / 128 * 128;
    const int c_bytes = NCW * 64 * (NW / 2 + 8) * ES;
    const int avail = g_smem_optin - c_bytes;
    P.S = std::min(4, std::max(0, avail / std::max(P.stage_bytes, 1)));
    P.c_off = P.S * P.stage_bytes;
    P.swap = swap;
    P.nomma = g_nomma;
    P.ntiles = 0;
    if (P.S < 2) {
        snprintf(g_reason, sizeof g_reason, "two pipeline stages (weights of K=%lld taps + input window with dilation %lld) do not fit in shared memory",
                 (long long)pr.K, (long long)pr.d);
        return REFUSED;
    }
    const int64_t ntiles = (int64_t)P.co_tiles * P.q_tiles * pr.N;
    if (ntiles > INT32_MAX) {
        snprintf(g_reason, sizeof g_reason, "too many tiles");
        return REFUSED;
    }
    P.ntiles = (int)ntiles;
    const int64_t pack_elems = (int64_t)P.co_tiles * P.nch * P.a_bytes / ES;
    const size_t need = (size_t)pack_elems * ES;
    if (need > g_wp_bytes) {
        if (g_wp) CK(cudaFree(g_wp));
        CK(cudaMalloc(&g_wp, need));
        g_wp_bytes = need;
    }
    P.wp = (const uint4 *)g_wp;
    const int smem = P.c_off + c_bytes;
    cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e != cudaSuccess) {
        snprintf(g_reason, sizeof g_reason, "cudaFuncSetAttribute: %s", cudaGetErrorString(e));
        return CUDA_ERR;
    }
    const int pgrid = (int)std::min<int64_t>((pack_elems + 255) / 256, 8192);
    pack_kernel<TF32, BM><<<pgrid, 256, 0, stream>>>(w, g_wp, P.Cin, P.Cout, P.K, P.nch, pack_elems);
    e = cudaGetLastError();
    if (e != cudaSuccess) {
        snprintf(g_reason, sizeof g_reason, "pack launch: %s", cudaGetErrorString(e));
        return CUDA_ERR;
    }
    const int grid = (int)std::min<int64_t>(ntiles, g_sms);
    kern<<<grid, (NCW + 1) * 128, smem, stream>>>(P);
    e = cudaGetLastError();
    if (e != cudaSuccess) {
        snprintf(g_reason, sizeof g_reason, "kernel launch: %s", cudaGetErrorString(e));
        return CUDA_ERR;
    }
    return OK;
}

/* Validates and launches configuration cfg (index into kCfgs, -1: auto). Refuses what it does not take. */
static int launch(const Problem &pr, bool tf32, int cfg, const void *x, const void *w, const void *bias, void *y,
                  cudaStream_t stream, int swap) {
    g_reason[0] = 0;
    if (pr.stride != 1 || pr.groups != 1) {
        snprintf(g_reason, sizeof g_reason, "stride %lld / groups %lld: only stride 1, groups 1",
                 (long long)pr.stride, (long long)pr.groups);
        return REFUSED;
    }
    if (pr.N < 1 || pr.Cin < 1 || pr.Cout < 1 || pr.K < 1 || pr.d < 1 || pr.p < 0 || pr.L_in < 1 || out_len(pr) < 1) {
        snprintf(g_reason, sizeof g_reason, "invalid shape (L_out = %lld)", (long long)out_len(pr));
        return REFUSED;
    }
    const int64_t lim = 1 << 30;
    if (pr.L_in > lim || out_len(pr) > lim || pr.Cin > (1 << 20) || pr.Cout > (1 << 20) || pr.K > 4096 ||
        pr.d > lim || pr.p > lim || pr.N > lim || (pr.K - 1) * pr.d > lim) {
        snprintf(g_reason, sizeof g_reason, "a size is past the prototype's 32-bit limits");
        return REFUSED;
    }
    if (cfg < 0) cfg = auto_cfg(pr, tf32);
    const Cfg c = kCfgs[cfg];
    if (c.tf32 != tf32) {
        snprintf(g_reason, sizeof g_reason, "configuration %d is for the other dtype", cfg);
        return REFUSED;
    }
    switch (cfg) {
    case 0: return launch_t<false, 2, 1, 256>(pr, x, w, bias, y, stream, swap);
    case 1: return launch_t<false, 1, 2, 256>(pr, x, w, bias, y, stream, swap);
    case 2: return launch_t<false, 1, 2, 128>(pr, x, w, bias, y, stream, swap);
    case 3: return launch_t<false, 2, 1, 128>(pr, x, w, bias, y, stream, swap);
    case 4: return launch_t<true, 2, 1, 128>(pr, x, w, bias, y, stream, swap);
    case 5: return launch_t<true, 1, 2, 128>(pr, x, w, bias, y, stream, swap);
    case 6: return launch_t<true, 2, 1, 256>(pr, x, w, bias, y, stream, swap);
    }
    snprintf(g_reason, sizeof g_reason, "no configuration %d", cfg);
    return REFUSED;
}

}  // namespace wg

/* ================================================================================================ */
/* Harness                                                                                          */
/* ================================================================================================ */
__host__ __device__ inline uint32_t hash32(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (uint32_t)x;
}
/* Uniform on [-1, 1), exact in float. */
__host__ __device__ inline float urand(uint64_t seed, uint64_t i) {
    return (float)(hash32(seed * 0x9E3779B97F4A7C15ULL + i) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}
template <bool TF32> __global__ void fill_kernel(void *p, int64_t n, uint64_t seed) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const float v = urand(seed, (uint64_t)i);
        if (TF32) ((float *)p)[i] = v;
        else ((__nv_bfloat16 *)p)[i] = __float2bfloat16_rn(v);
    }
}
static void fill(bool tf32, void *p, int64_t n, uint64_t seed) {
    if (tf32) fill_kernel<true><<<4096, 256>>>(p, n, seed);
    else fill_kernel<false><<<4096, 256>>>(p, n, seed);
    CK(cudaGetLastError());
}
static double host_val(bool tf32, uint64_t seed, int64_t i) {
    const float v = urand(seed, (uint64_t)i);
    return tf32 ? (double)v : (double)__bfloat162float(__float2bfloat16_rn(v));
}
__global__ void nonfinite_kernel(const void *p, int64_t n, bool f32, unsigned long long *cnt) {
    unsigned long long c = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        if (f32) c += ((((const uint32_t *)p)[i] & 0x7F800000u) == 0x7F800000u);
        else c += ((((const uint16_t *)p)[i] & 0x7F80u) == 0x7F80u);
    }
    atomicAdd(cnt, c);
}
__global__ void gather_kernel(const void *y, bool f32, const int64_t *idx, int n, double *out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = f32 ? (double)((const float *)y)[idx[i]] : (double)__bfloat162float(((const __nv_bfloat16 *)y)[idx[i]]);
}
/* sum (a-b)^2 and b^2 over two whole tensors (ours vs the product kernel's) */
__global__ void diff_kernel(const void *a, const void *b, int64_t n, bool f32, double *acc) {
    double num = 0, den = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const double va = f32 ? (double)((const float *)a)[i] : (double)__bfloat162float(((const __nv_bfloat16 *)a)[i]);
        const double vb = f32 ? (double)((const float *)b)[i] : (double)__bfloat162float(((const __nv_bfloat16 *)b)[i]);
        num += (va - vb) * (va - vb);
        den += vb * vb;
    }
    atomicAdd(&acc[0], num);
    atomicAdd(&acc[1], den);
}

struct Buf {
    void *p = nullptr;
    size_t n = 0;
    void need(size_t b) {
        if (b <= n) return;
        if (p) CK(cudaFree(p));
        CK(cudaMalloc(&p, b));
        n = b;
    }
};
static Buf bx, bw, bb, by, by2;
static int g_pass = 0, g_fail = 0, g_refused_ok = 0;
static int g_swap = 0;

struct Check {
    double rel;
    unsigned long long nonfin;
    bool ok;
};

/* Compares y (device) with a float64 reference from the definition: all outputs when the host work is
 * small, else a random sample plus corners. */
static Check check_output(const wg::Problem &pr, bool tf32, bool has_bias, const void *y, uint64_t sx, uint64_t sw,
                          uint64_t sb, uint64_t seed) {
    const int64_t Lout = wg::out_len(pr);
    const int64_t yn = pr.N * pr.Cout * Lout;
    unsigned long long *dcnt;
    CK(cudaMalloc(&dcnt, sizeof *dcnt));
    CK(cudaMemset(dcnt, 0, sizeof *dcnt));
    nonfinite_kernel<<<2048, 256>>>(y, yn, tf32, dcnt);
    CK(cudaGetLastError());
    unsigned long long nonfin = 0;
    CK(cudaMemcpy(&nonfin, dcnt, sizeof nonfin, cudaMemcpyDeviceToHost));
    CK(cudaFree(dcnt));
    std::vector<int64_t> idx;
    const int64_t per = pr.Cin * pr.K;
    if (yn * per <= 30000000) {
        for (int64_t i = 0; i < yn; ++i) idx.push_back(i);
    } else {
        uint64_t rs = seed * 7919 + 17;
        auto rnd = [&](int64_t m) {
            rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
            return (int64_t)((rs >> 17) % (uint64_t)m);
        };
        const int64_t co_c[2] = {0, pr.Cout - 1}, n_c[2] = {0, pr.N - 1}, o_c[4] = {0, 1, Lout - 2, Lout - 1};
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
                for (int c = 0; c < 4; ++c)
                    if (o_c[c] >= 0) idx.push_back((n_c[a] * pr.Cout + co_c[b]) * Lout + o_c[c]);
        const int64_t ns = std::max<int64_t>(300, std::min<int64_t>(3000, 6000000 / std::max<int64_t>(per, 1)));
        for (int64_t i = 0; i < ns; ++i) idx.push_back(rnd(yn));
    }
    int64_t *didx;
    double *dout;
    CK(cudaMalloc(&didx, idx.size() * sizeof(int64_t)));
    CK(cudaMalloc(&dout, idx.size() * sizeof(double)));
    CK(cudaMemcpy(didx, idx.data(), idx.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
    gather_kernel<<<(unsigned)((idx.size() + 255) / 256), 256>>>(y, tf32, didx, (int)idx.size(), dout);
    CK(cudaGetLastError());
    std::vector<double> got(idx.size());
    CK(cudaMemcpy(got.data(), dout, idx.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaFree(didx));
    CK(cudaFree(dout));
    /* host copies of x and w values when small (full checks), else per-element hashing */
    const bool small = pr.N * pr.Cin * pr.L_in <= 4000000;
    std::vector<double> hx, hw(pr.Cin * pr.Cout * pr.K);
    for (int64_t i = 0; i < (int64_t)hw.size(); ++i) hw[i] = host_val(tf32, sw, i);
    if (small) {
        hx.resize(pr.N * pr.Cin * pr.L_in);
        for (int64_t i = 0; i < (int64_t)hx.size(); ++i) hx[i] = host_val(tf32, sx, i);
    }
    double num = 0, den = 0;
    bool nan_sample = false;
    for (size_t s = 0; s < idx.size(); ++s) {
        const int64_t e = idx[s];
        const int64_t o = e % Lout, co = (e / Lout) % pr.Cout, n = e / Lout / pr.Cout;
        double ref = has_bias ? host_val(tf32, sb, co) : 0.0;
        for (int64_t k = 0; k < pr.K; ++k) {
            const int64_t i = o + pr.p - k * pr.d;
            if (i < 0 || i >= pr.L_in) continue;
            for (int64_t ci = 0; ci < pr.Cin; ++ci) {
                const int64_t xi = (n * pr.Cin + ci) * pr.L_in + i;
                const double xv = small ? hx[xi] : host_val(tf32, sx, xi);
                ref += xv * hw[(ci * pr.Cout + co) * pr.K + k];
            }
        }
        if (!std::isfinite(got[s])) nan_sample = true;
        num += (got[s] - ref) * (got[s] - ref);
        den += ref * ref;
    }
    const double rel = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
    const double tol = tf32 ? 2e-3 : 1e-2;
    return Check{rel, nonfin, !nan_sample && nonfin == 0 && rel <= tol};
}

/* One correctness trial: fresh seeded inputs, NaN-poisoned output, run cfg, check. Returns 1 pass, 0 fail,
 * -1 refused. */
static int trial(const char *name, const wg::Problem &pr, bool tf32, int cfg, bool has_bias, uint64_t seed,
                 bool expect_refusal = false, bool quiet = false) {
    const size_t es = tf32 ? 4 : 2;
    const int64_t Lout = wg::out_len(pr);
    const int64_t xn = pr.N * pr.Cin * pr.L_in, wn = pr.Cin * pr.Cout * pr.K;
    const int64_t yn = Lout > 0 ? pr.N * pr.Cout * Lout : 0;
    bx.need(std::max<int64_t>(xn, 1) * es + 16);
    bw.need(std::max<int64_t>(wn, 1) * es);
    bb.need(pr.Cout * es);
    by.need(std::max<int64_t>(yn, 1) * es + 16);
    const uint64_t sx = seed * 4 + 1, sw = seed * 4 + 2, sb = seed * 4 + 3;
    if (xn > 0) fill(tf32, bx.p, xn, sx);
    if (wn > 0) fill(tf32, bw.p, wn, sw);
    fill(tf32, bb.p, pr.Cout, sb);
    if (yn > 0) CK(cudaMemset(by.p, 0xFF, yn * es));
    CK(cudaDeviceSynchronize());
    const int r = wg::launch(pr, tf32, cfg, bx.p, bw.p, has_bias ? bb.p : nullptr, by.p, 0, g_swap);
    char shp[200];
    snprintf(shp, sizeof shp, "N%lld Cin%lld Cout%lld K%lld d%lld p%lld L%lld", (long long)pr.N, (long long)pr.Cin,
             (long long)pr.Cout, (long long)pr.K, (long long)pr.d, (long long)pr.p, (long long)pr.L_in);
    if (r == wg::REFUSED) {
        if (expect_refusal) {
            g_refused_ok++;
            printf("RES,%s,%s,c%d,%s,refused as expected: %s\n", name, tf32 ? "tf32" : "bf16", cfg, shp, wg::g_reason);
        } else {
            printf("RES,%s,%s,c%d,%s,NS: %s\n", name, tf32 ? "tf32" : "bf16", cfg, shp, wg::g_reason);
        }
        return -1;
    }
    if (r != wg::OK) {
        printf("RES,%s,%s,c%d,%s,ERR %s\n", name, tf32 ? "tf32" : "bf16", cfg, shp, wg::g_reason);
        g_fail++;
        return 0;
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("RES,%s,%s,c%d,%s,CUDA ERROR %s\n", name, tf32 ? "tf32" : "bf16", cfg, shp, cudaGetErrorString(e));
        fflush(stdout);
        exit(3); /* a fault poisons the context: stop here */
    }
    if (expect_refusal) {
        printf("RES,%s,%s,c%d,%s,FAIL: should have been refused\n", name, tf32 ? "tf32" : "bf16", cfg, shp);
        g_fail++;
        return 0;
    }
    const Check c = check_output(pr, tf32, has_bias, by.p, sx, sw, sb, seed);
    if (!quiet || !c.ok)
        printf("RES,%s,%s,c%d,%s,rel %.3e nonfinite %llu %s\n", name, tf32 ? "tf32" : "bf16", cfg, shp, c.rel, c.nonfin,
               c.ok ? "PASS" : "FAIL");
    fflush(stdout);
    if (c.ok) g_pass++;
    else g_fail++;
    return c.ok ? 1 : 0;
}

static float time_it(const std::function<void()> &f, int warm = 3, int reps = 25) {
    for (int i = 0; i < warm; ++i) f();
    CK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> v;
    for (int i = 0; i < reps; ++i) {
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        v.push_back(ms);
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct BenchShape {
    const char *name;
    wg::Problem pr;
};

static void bench(const BenchShape &bs, bool tf32, uint64_t seed) {
    const wg::Problem &pr = bs.pr;
    const size_t es = tf32 ? 4 : 2;
    const int64_t Lout = wg::out_len(pr);
    const int64_t xn = pr.N * pr.Cin * pr.L_in, wn = pr.Cin * pr.Cout * pr.K, yn = pr.N * pr.Cout * Lout;
    bx.need(xn * es);
    bw.need(wn * es);
    bb.need(pr.Cout * es);
    by.need(yn * es);
    by2.need(yn * es);
    const uint64_t sx = seed * 4 + 1, sw = seed * 4 + 2, sb = seed * 4 + 3;
    fill(tf32, bx.p, xn, sx);
    fill(tf32, bw.p, wn, sw);
    fill(tf32, bb.p, pr.Cout, sb);
    const double flop = 2.0 * pr.N * pr.Cin * pr.Cout * pr.K * pr.L_in;
    const double bytes = (double)(xn + wn + yn) * es;
    const char *dt = tf32 ? "tf32" : "bf16";
    /* product kernel (heuristic pick) */
    convt1d_params P = convt1d_params_make(pr.N, pr.Cin, pr.Cout, pr.L_in, pr.K);
    P.padding = pr.p;
    P.dilation = pr.d;
    convt1d_problem cp;
    cp.p = P;
    cp.out_length = Lout;
    cp.cin_g = pr.Cin;
    cp.cout_g = pr.Cout;
    cp.dtype = tf32 ? CONVT1D_F32 : CONVT1D_BF16;
    cp.math = CONVT1D_MATH_ALLOW_TF32;
    CK(cudaMemset(by2.p, 0xFF, yn * es));
    const convt1d_status st = convt1d_fwd_tc_cfg(cp, bx.p, bw.p, nullptr, by2.p, 0, -1);
    float ms_prod = -1;
    Check cprod{0, 0, false};
    if (st == CONVT1D_SUCCESS) {
        CK(cudaDeviceSynchronize());
        cprod = check_output(pr, tf32, false, by2.p, sx, sw, sb, seed);
        ms_prod = time_it([&] { convt1d_fwd_tc_cfg(cp, bx.p, bw.p, nullptr, by2.p, 0, -1); });
        printf("TIME,%s,%s,product(c%d),%.4f,%.1f,%.1f,rel %.2e %s\n", bs.name, dt, convt1d_tc_last_cfg, ms_prod,
               flop / ms_prod * 1e-9, bytes / ms_prod * 1e-6, cprod.rel, cprod.ok ? "PASS" : "FAIL");
    } else {
        printf("TIME,%s,%s,product,,,,status %d\n", bs.name, dt, (int)st);
    }
    /* ours: auto pick and each configuration of the dtype */
    const int autoc = wg::auto_cfg(pr, tf32);
    for (int cfg = 0; cfg < wg::kNumCfgs; ++cfg) {
        if (wg::kCfgs[cfg].tf32 != tf32) continue;
        CK(cudaMemset(by.p, 0xFF, yn * es));
        const int r = wg::launch(pr, tf32, cfg, bx.p, bw.p, nullptr, by.p, 0, g_swap);
        if (r != wg::OK) {
            printf("TIME,%s,%s,wgmma c%d,,,,%s %s\n", bs.name, dt, cfg, r == wg::REFUSED ? "refused:" : "ERR", wg::g_reason);
            if (r != wg::REFUSED) g_fail++;
            continue;
        }
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("TIME,%s,%s,wgmma c%d,CUDA ERROR %s\n", bs.name, dt, cfg, cudaGetErrorString(e));
            fflush(stdout);
            exit(3);
        }
        const Check c = check_output(pr, tf32, false, by.p, sx, sw, sb, seed);
        if (c.ok) g_pass++;
        else g_fail++;
        double dd[2] = {0, 0};
        if (st == CONVT1D_SUCCESS) {
            double *dacc;
            CK(cudaMalloc(&dacc, 2 * sizeof(double)));
            CK(cudaMemset(dacc, 0, 2 * sizeof(double)));
            diff_kernel<<<1024, 256>>>(by.p, by2.p, yn, tf32, dacc);
            CK(cudaGetLastError());
            CK(cudaMemcpy(dd, dacc, sizeof dd, cudaMemcpyDeviceToHost));
            CK(cudaFree(dacc));
        }
        float ms = -1;
        if (c.ok) {
            ms = time_it([&] { wg::launch(pr, tf32, cfg, bx.p, bw.p, nullptr, by.p, 0, g_swap); });
        }
        if (c.ok && cfg == autoc) {
            wg::g_nomma = 1;
            const float ms0 = time_it([&] { wg::launch(pr, tf32, cfg, bx.p, bw.p, nullptr, by.p, 0, g_swap); });
            wg::g_nomma = 0;
            printf("DIAG,%s,%s,c%d without wgmma (data movement + epilogue only): %.4f ms, %.1f GB/s\n", bs.name, dt, cfg,
                   ms0, bytes / ms0 * 1e-6);
        }
        printf("TIME,%s,%s,wgmma c%d%s (%s %dx%d n%d),%.4f,%.1f,%.1f,rel %.2e vs_product %.2e nonfinite %llu %s\n",
               bs.name, dt, cfg, cfg == autoc ? "*" : "", tf32 ? "tf32" : "bf16", wg::kCfgs[cfg].wm, wg::kCfgs[cfg].wn,
               wg::kCfgs[cfg].nw, ms, ms > 0 ? flop / ms * 1e-9 : 0.0, ms > 0 ? bytes / ms * 1e-6 : 0.0, c.rel,
               dd[1] > 0 ? std::sqrt(dd[0] / dd[1]) : -1.0, c.nonfin, c.ok ? "PASS" : "FAIL");
        fflush(stdout);
    }
}

int main(int argc, char **argv) {
    const std::string what = argc > 1 ? argv[1] : "all";
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    if (what == "probe") return 0;
    printf("device: %s, %d SMs, cc %d.%d, smem optin %zu\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor,
           prop.sharedMemPerBlockOptin);
    if (prop.major != 9) {
        printf("needs an sm_90 GPU\n");
        return 1;
    }
    wg::g_sms = prop.multiProcessorCount;
    wg::g_smem_optin = (int)prop.sharedMemPerBlockOptin;
    uint64_t seed = (uint64_t)time(nullptr) * 1000003ULL;

    /* Calibration of the descriptor's LBO/SBO reading on one small shape per dtype (0 = PTX ISA). */
    {
        wg::Problem pr{2, 40, 72, 1000, 3, 2, 1};
        int ok0 = trial("calib_swap0", pr, false, 0, true, ++seed);
        if (ok0 != 1) {
            g_swap = 1;
            int ok1 = trial("calib_swap1", pr, false, 0, true, ++seed);
            printf("CALIB: swap0 %s, swap1 %s\n", ok0 == 1 ? "ok" : "bad", ok1 == 1 ? "ok" : "bad");
            if (ok1 != 1) g_swap = 0;
        } else {
            printf("CALIB: descriptor as in the PTX ISA (LBO = K-direction core-matrix stride) works\n");
        }
    }
    if (what == "check" || what == "all") {
        /* fixed odd shapes */
        const wg::Problem fixed[] = {
            {1, 8, 16, 1, 1, 1, 0},       {3, 64, 80, 300, 5, 3, 4},   {2, 9, 17, 37, 2, 1, 0},
            {1, 33, 65, 256, 3, 1, 1},    {2, 64, 64, 512, 4, 2, 2},   {3, 17, 33, 299, 5, 3, 0},
            {1, 130, 129, 1000, 3, 1, 0}, {2, 40, 200, 700, 5, 1, 2},  {1, 64, 64, 4099, 5, 8, 0},
            {2, 24, 40, 8, 1, 1, 0},      {1, 16, 16, 2, 5, 3, 4},     {2, 256, 48, 1024, 2, 1, 0},
        };
        for (const auto &pr : fixed)
            for (int cfg = 0; cfg < wg::kNumCfgs; ++cfg) trial("fixed", pr, wg::kCfgs[cfg].tf32, cfg, true, ++seed);
        /* random odd shapes, fresh seed each */
        uint64_t rs = seed ^ 0xabcdef;
        auto rnd = [&](int lo, int hi) {
            rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
            return lo + (int)((rs >> 33) % (uint64_t)(hi - lo + 1));
        };
        int made = 0;
        while (made < 40) {
            wg::Problem pr{rnd(1, 3), rnd(8, 64), rnd(16, 80), rnd(1, 300), rnd(1, 5), rnd(1, 3), rnd(0, 4)};
            if (made % 4 == 0) pr.L_in = 8 * rnd(1, 37); /* aligned fast path */
            if (wg::out_len(pr) < 1) continue;
            const int cfg = made % wg::kNumCfgs;
            trial("random", pr, wg::kCfgs[cfg].tf32, cfg, made % 3 != 0, ++seed);
            /* the other dtype with its auto pick */
            trial("random_auto", pr, !wg::kCfgs[cfg].tf32, -1, made % 3 != 1, ++seed);
            ++made;
        }
        /* must be refused, never wrong */
        wg::Problem r1{1, 16, 16, 100, 3, 1, 0};
        r1.stride = 2;
        trial("refuse_stride2", r1, false, -1, true, ++seed, true);
        wg::Problem r2{1, 16, 16, 100, 3, 1, 0};
        r2.groups = 2;
        trial("refuse_groups2", r2, false, -1, true, ++seed, true);
        trial("refuse_halo", wg::Problem{1, 16, 16, 100, 200, 100, 0}, true, -1, true, ++seed, true);
        trial("refuse_empty_out", wg::Problem{1, 16, 16, 3, 1, 1, 4}, false, -1, true, ++seed, true);
        printf("CHECK: %d PASS, %d FAIL, %d refused as expected\n", g_pass, g_fail, g_refused_ok);
    }
    if (what == "bench" || what == "all") {
        /* d2d copy bandwidth */
        {
            const size_t nb = (size_t)1 << 30;
            Buf a, b;
            a.need(nb);
            b.need(nb);
            CK(cudaMemset(a.p, 1, nb));
            const float ms = time_it([&] { CK(cudaMemcpyAsync(b.p, a.p, nb, cudaMemcpyDeviceToDevice)); }, 2, 10);
            printf("COPY: cudaMemcpy d2d 1 GiB: %.3f ms, %.0f GB/s (read + write)\n", ms, 2.0 * nb / ms * 1e-6);
            CK(cudaFree(a.p));
            CK(cudaFree(b.p));
        }
        const BenchShape shapes[] = {
            {"KB64", {64, 128, 128, 65536, 3, 1, 0}},
            {"KB74", {32, 32, 64, 131072, 5, 3, 0}},
            {"merged_up8", {16, 512, 2048, 8192, 2, 1, 0}},
            {"merged_up3", {16, 128, 128, 131072, 2, 1, 0}},
        };
        printf("TIME,shape,dtype,kernel,ms,TFLOP/s,GB/s,check\n");
        for (const auto &s : shapes) bench(s, false, ++seed);
        for (const auto &s : shapes) bench(s, true, ++seed);
    }
    printf("TOTAL: %d PASS, %d FAIL, %d refused as expected (descriptor swap %d)\n", g_pass, g_fail, g_refused_ok, g_swap);
    return g_fail ? 1 : 0;
}
