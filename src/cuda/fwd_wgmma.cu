/* Hopper forward for fp16/bf16: the polyphase implicit GEMM of fwd_tc_kernel.cuh on wgmma, fed by TMA.
 *
 * GEMM (one batch row n, groups == 1): Y[m, q] = sum_{j < T} sum_ci Wm[j][m][ci] * X[ci, q - j*dj].
 *   stride 1:  m = co, tap j = k, dj = d; output o = q - p.
 *   stride s in {2, 4, 8, ...} (phases merged, see merge_phases in fwd_tc.cu): m = co*s + r, tap j holds
 *   the weight k with k*d = j*s + r (zero if none), dj = 1; output o = q*s + r - p.
 * A block owns BM rows x BN columns q. Each pipeline stage is one (64-channel chunk, tap) pair:
 *   A = Wm[j][m0 .. m0+BM)[c*64 .. +64): a TMA box of the packed weights, K-major, 128-byte swizzle;
 *   B = X[n][c*64 .. +64)[q0 - j*dj .. +BN): TMA boxes of the input itself, N(q)-major, 128-byte swizzle.
 * The tap shift is the TMA box coordinate, so no shifted copy is ever made; TMA zero-fills what lies
 * outside the tensor (q < 0, q >= L_in, channels >= C_in), so boundaries need no code.
 * Warp specialization: BM/64 consumer warpgroups (one 64-row wgmma slice each) and one producer warp
 * that issues the TMA copies; they meet on full/empty mbarriers, STAGES deep.
 * Epilogue: bias added, converted, staged in shared memory in output order (row co, column o, each row
 * shifted so that its 16-byte global chunks line up), then written with 16-byte stores.
 *
 * Taken for: sm_90 (built as sm_90a), fp16/bf16, groups == 1, L_in a multiple of 8 (TMA row pitch),
 * x 16-byte aligned, stride 1 or a stride dividing 64. Everything else: fwd_tc.cu's mma.sync kernel. */
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cudaTypedefs.h>
#include <limits.h>
#include <stdlib.h>

#include "kernels.cuh"
#include "wgmma_ops.cuh"

namespace {

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CONVT1D_WG_DEVICE 1
#else
#define CONVT1D_WG_DEVICE 0
#endif

constexpr int kBK = 64;           /* input channels per stage: one 128-byte swizzle row of 16-bit values */
constexpr int kBoxQ = 64;         /* q columns per TMA box of the input (128 bytes) */
constexpr int kRowPad = 16;       /* epilogue: elements of room per staged row for its alignment shift */

struct WgArgs {
    const void *bias;
    void *y;
    int cout, L_out, p;
    int ps;      /* phases merged into rows (1 at stride 1) */
    int T;       /* taps */
    int dj;      /* input offset between consecutive taps */
    int M;       /* GEMM rows: cout * ps */
    int cin;
    int nchunk;  /* ceil(cin / 64) */
    int q_min;
    int yvec;    /* y 16-byte aligned: full chunks use 16-byte stores */
    int dbg;     /* CONVT1D_WG_DEBUG (dev only): 1 skips the MMAs, 2 skips the TMA copies, 3 skips the
                  * weight copy, 4 the input copy, 5 clamps input coordinates to >= 0 */
    const CUtensorMap *gmaps; /* dev: the two maps from global memory instead of the parameters */
};

__device__ __forceinline__ uint32_t smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

#if CONVT1D_WG_DEVICE
__device__ __forceinline__ void mbar_init(uint32_t bar, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
/* Blocks until the barrier's phase with this parity has completed. */
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
    asm volatile(
        "{\n.reg .pred done;\n"
        "WAIT_%=:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra WAIT_%=;\n}\n" ::"r"(bar),
        "r"(parity)
        : "memory");
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
__device__ __forceinline__ void named_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
/* Shared-memory matrix descriptor with 128-byte swizzle (layout type 1): start, leading and stride
 * byte offsets in 16-byte units. */
__device__ __forceinline__ uint64_t desc_sw128(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32) |
           (1ull << 62);
}
#endif

template <bool BF> struct half_t;
template <> struct half_t<false> {
    typedef __half T;
    static __device__ __forceinline__ float to_f(T v) { return __half2float(v); }
    static __device__ __forceinline__ T from_f(float v) { return __float2half_rn(v); }
};
template <> struct half_t<true> {
    typedef __nv_bfloat16 T;
    static __device__ __forceinline__ float to_f(T v) { return __bfloat162float(v); }
    static __device__ __forceinline__ T from_f(float v) { return __float2bfloat16_rn(v); }
};

template <bool BF, int BN> struct wg_mma;
template <> struct wg_mma<false, 128> {
    static __device__ __forceinline__ void run(float (&d)[64], uint64_t a, uint64_t b) { wgmma_f16_n128(d, a, b); }
};
template <> struct wg_mma<false, 256> {
    static __device__ __forceinline__ void run(float (&d)[128], uint64_t a, uint64_t b) { wgmma_f16_n256(d, a, b); }
};
template <> struct wg_mma<true, 128> {
    static __device__ __forceinline__ void run(float (&d)[64], uint64_t a, uint64_t b) { wgmma_bf16_n128(d, a, b); }
};
template <> struct wg_mma<true, 256> {
    static __device__ __forceinline__ void run(float (&d)[128], uint64_t a, uint64_t b) { wgmma_bf16_n256(d, a, b); }
};

template <int BM, int BN, int STAGES, int PT = 32> struct wg_layout {
    static constexpr int CONSUMERS = BM / 64;               /* warpgroups */
    static constexpr int THREADS = CONSUMERS * 128 + PT;    /* + the producer (a warp or a warpgroup) */
    static constexpr int A_BYTES = BM * kBK * 2;
    static constexpr int B_BYTES = kBK * BN * 2;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
    static constexpr int BAR_OFF = STAGES * STAGE_BYTES;    /* full[STAGES], empty[STAGES] */
    static constexpr int SMEM = BAR_OFF + 2 * STAGES * 8 + 1024; /* + slack to align the base to 1024 */
};

template <bool BF, int BM, int BN, int STAGES, int MINB, int PT>
__global__ void __launch_bounds__(wg_layout<BM, BN, STAGES, PT>::THREADS, MINB)
    fwd_wgmma_kernel(const __grid_constant__ CUtensorMap tmx, const __grid_constant__ CUtensorMap tmw, WgArgs a) {
#if CONVT1D_WG_DEVICE
    typedef wg_layout<BM, BN, STAGES, PT> L;
    typedef half_t<BF> H;
    typedef typename H::T T;
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char *sm = (unsigned char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = smem_addr(sm);
    const uint32_t full0 = sbase + L::BAR_OFF, empty0 = full0 + STAGES * 8;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int q0 = a.q_min + blockIdx.x * BN;
    const int m0 = blockIdx.y * BM;
    const int n = blockIdx.z;
    const int iters = a.nchunk * a.T;

    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, L::CONSUMERS * 4);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (warp >= L::CONSUMERS * 4) {
        /* Producer: stage it = (chunk c, tap j). */
        if (warp == L::CONSUMERS * 4 && lane == 0) {
            for (int it = 0; it < iters; ++it) {
                const int s = it % STAGES;
                if (it >= STAGES) mbar_wait(empty0 + 8 * s, ((it / STAGES) + 1) & 1);
                const int c = it / a.T, j = it - c * a.T;
                const uint32_t st = sbase + s * L::STAGE_BYTES, bar = full0 + 8 * s;
                if (a.dbg == 2) {
                    mbar_arrive(bar);
                    continue;
                }
                const CUtensorMap *mx = a.gmaps ? a.gmaps : &tmx, *mw = a.gmaps ? a.gmaps + 1 : &tmw;
                mbar_expect_tx(bar, a.dbg == 3 ? L::B_BYTES : a.dbg == 4 ? L::A_BYTES : L::STAGE_BYTES);
                if (a.dbg != 3) tma_load_3d(st, mw, bar, c * kBK, m0, j);
                if (a.dbg != 4) {
#pragma unroll
                    for (int b = 0; b < BN / kBoxQ; ++b) {
                        int qc = q0 - j * a.dj + b * kBoxQ;
                        if (a.dbg == 5 && qc < 0) qc = 0;
                        tma_load_3d(st + L::A_BYTES + b * (kBoxQ * kBK * 2), mx, bar, qc, c * kBK, n);
                    }
                }
            }
        }
        return;
    }

    /* Consumers: warpgroup wg multiplies rows [64 wg, 64 wg + 64) of the block. */
    const int wg = warp >> 2;
    float acc[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
    for (int it = 0; it < iters; ++it) {
        const int s = it % STAGES;
        mbar_wait(full0 + 8 * s, (it / STAGES) & 1);
        const uint32_t st = sbase + s * L::STAGE_BYTES;
        wg_fence();
        /* Always the full 64 channels (zero past C_in in both operands): a data-dependent step count
         * would make ptxas serialize the wgmmas. */
#pragma unroll
        for (int kk = 0; kk < kBK / 16; ++kk) {
            /* A: K-major rows of 128 B, 8-row groups 1024 B apart; a k16 step is 32 B along the row.
             * B: q-major, 64-column atoms 8 KB apart (LBO), 8-channel groups 1024 B apart (SBO). */
            const uint64_t da = desc_sw128(st + wg * (64 * kBK * 2) + kk * 32, 16, 1024);
            const uint64_t db = desc_sw128(st + L::A_BYTES + kk * 2048, kBoxQ * kBK * 2, 1024);
            if (a.dbg != 1) wg_mma<BF, BN>::run(acc, da, db);
        }
        wg_commit();
        /* Keep one group in flight: the previous stage's MMAs are done, release its buffer. */
        wg_wait<1>();
        if (it > 0 && lane == 0) mbar_arrive(empty0 + 8 * ((it - 1) % STAGES));
    }
    wg_wait<0>();

    /* Epilogue. Every consumer is past its last MMA before the stage buffers are reused. */
    named_sync(1, L::CONSUMERS * 128);
    const int R = BM / a.ps;         /* output channels of this block */
    const int W = BN * a.ps;         /* output positions per channel */
    const int pitch = W + kRowPad;   /* elements; a multiple of 8 */
    T *tile = reinterpret_cast<T *>(sm);
    const int64_t obase = (int64_t)q0 * a.ps - a.p; /* output position of tile column 0 */
    const int co0 = m0 / a.ps;
    /* Row shift: global element (row base + obase) sits at column `shift` (its offset in a 16-byte chunk). */
    auto row_shift = [&](int co) -> int {
        const int64_t e = ((int64_t)n * a.cout + co) * a.L_out + obase;
        return (int)(((e % 8) + 8) % 8);
    };
    {
        const int g = lane >> 2, t = lane & 3;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int ml = wg * 64 + (warp & 3) * 16 + g + 8 * h; /* row within the block */
            const int m = m0 + ml;
            const int col = ml / a.ps, r = ml - col * a.ps;
            const int co = co0 + col;
            const float bv = a.bias && m < a.M ? H::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
            const int sh = row_shift(co);
            T *row = tile + col * pitch + sh + r;
#pragma unroll
            for (int i = 0; i < BN / 8; ++i) {
                const int q = i * 8 + 2 * t;
                row[q * a.ps] = H::from_f(acc[4 * i + 2 * h] + bv);
                row[(q + 1) * a.ps] = H::from_f(acc[4 * i + 2 * h + 1] + bv);
            }
        }
    }
    named_sync(1, L::CONSUMERS * 128);
    /* 16-byte chunks of each output row, aligned in global memory. */
    const int chunks = W / 8 + 2;
    T *y = static_cast<T *>(a.y);
    for (int e = tid; e < R * chunks; e += L::CONSUMERS * 128) {
        const int col = e / chunks, k = e - col * chunks;
        const int co = co0 + col;
        if (co >= a.cout) continue;
        const int64_t gb = ((int64_t)n * a.cout + co) * a.L_out;
        const int64_t o_lo = obase > 0 ? obase : 0;
        const int64_t o_hi = obase + W < a.L_out ? obase + W : a.L_out;
        if (o_lo >= o_hi) continue;
        const int sh = row_shift(co);
        const int64_t start = gb + obase - sh; /* a multiple of 8: tile column 0 of this row */
        const int64_t c0 = start + 8 * k;      /* this chunk's first element */
        if (c0 + 8 <= gb + o_lo || c0 >= gb + o_hi) continue;
        const T *src = tile + col * pitch + 8 * k;
        if (a.yvec && c0 >= gb + o_lo && c0 + 8 <= gb + o_hi) {
            *reinterpret_cast<uint4 *>(y + c0) = *reinterpret_cast<const uint4 *>(src);
        } else {
            for (int u = 0; u < 8; ++u)
                if (c0 + u >= gb + o_lo && c0 + u < gb + o_hi) y[c0 + u] = src[u];
        }
    }
#else
    __trap(); /* not built for sm_90a: the host never launches it (wgmma_built) */
#endif
}

/* Packed weights Wm[j][m][ci] (16-bit, zero padded to [T][M_pad][nchunk*64]); see the header comment. */
template <bool BF>
__global__ void wgmma_pack_kernel(const void *w, void *wp, int T, int M_pad, int cin_pad, int cin, int cout, int K,
                                  int ps, int d, int w_adj, int64_t total) {
    typedef typename half_t<BF>::T HT;
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= total) return;
    const int ci = (int)(idx % cin_pad);
    const int m = (int)((idx / cin_pad) % M_pad);
    const int j = (int)(idx / ((int64_t)cin_pad * M_pad));
    HT v = half_t<BF>::from_f(0.f);
    if (ci < cin && m < cout * ps) {
        const int co = m / ps, r = m - co * ps;
        int k = -1;
        if (ps == 1) {
            k = j;
        } else {
            const int64_t kd = (int64_t)j * ps + r;
            if (kd % d == 0 && kd / d < K) k = (int)(kd / d);
        }
        if (k >= 0 && k < K)
            v = static_cast<const HT *>(w)[w_adj ? ((int64_t)co * cin + ci) * K + (K - 1 - k)
                                                 : ((int64_t)ci * cout + co) * K + k];
    }
    static_cast<HT *>(wp)[idx] = v;
}

/* ------------------------------------------------------------------ host side */

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

/* 3D tiled map over 16-bit data [d2][d1][d0] (d0 contiguous), box b0 x b1 x 1, 128-byte swizzle. */
bool make_map(CUtensorMap *m, const void *base, uint64_t d0, uint64_t d1, uint64_t d2, uint32_t b0, uint32_t b1) {
    PFN_cuTensorMapEncodeTiled_v12000 fn = encode_fn();
    if (!fn) return false;
    const cuuint64_t dims[3] = {d0, d1, d2};
    const cuuint64_t strides[2] = {d0 * 2, d0 * d1 * 2};
    const cuuint32_t box[3] = {b0, b1, 1};
    const cuuint32_t es[3] = {1, 1, 1};
    return fn(m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, const_cast<void *>(base), dims, strides, box, es,
              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

int device_major() {
    static int major = -1;
    if (major < 0) {
        int dev = 0, m = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&m, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
            cudaGetLastError();
            return 0;
        }
        major = m;
    }
    return major;
}

template <bool BF, int BM, int BN, int STAGES, int MINB, int PT = 32>
cudaError_t launch(const CUtensorMap &tmx, const CUtensorMap &tmw, const WgArgs &a, dim3 grid, cudaStream_t stream) {
    typedef wg_layout<BM, BN, STAGES, PT> L;
    auto kern = fwd_wgmma_kernel<BF, BM, BN, STAGES, MINB, PT>;
    static bool attr_set = false; /* per process: one device kind is the common case; set again if it fails */
    if (!attr_set) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, L::SMEM);
        if (e != cudaSuccess) return e;
        attr_set = true;
    }
    kern<<<grid, L::THREADS, L::SMEM, stream>>>(tmx, tmw, a);
    return cudaGetLastError();
}

/* Whether the kernels were compiled for sm_90a (a build for other architectures only has the trap). */
bool wgmma_built() {
    static int built = -1;
    if (built < 0) {
        cudaFuncAttributes fa;
        built = cudaFuncGetAttributes(&fa, fwd_wgmma_kernel<true, 128, 128, 3, 1, 32>) == cudaSuccess && fa.ptxVersion >= 90 &&
                fa.binaryVersion == 90;
        cudaGetLastError();
    }
    return built == 1;
}

}  // namespace

/* CONVT1D_WGMMA=0 (read once) turns this path off, for A/B timing. */
convt1d_status convt1d_fwd_wgmma(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                 cudaStream_t stream) {
    static const int env = [] {
        const char *v = getenv("CONVT1D_WGMMA");
        return v && v[0] ? (v[0] != '0') : -1;
    }();
    const convt1d_params &P = pr.p;
    if (env == 0 || (pr.dtype != CONVT1D_F16 && pr.dtype != CONVT1D_BF16)) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.groups != 1 || P.batch == 0 || P.in_length % 8 != 0 || ((uintptr_t)x & 15) != 0)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.in_length >= INT_MAX / 2 || pr.out_length >= INT_MAX / 2 || P.batch > 65535 || P.in_channels > 65535 ||
        P.out_channels > 65535 || P.kernel_size > 4096 || P.dilation > 65535 || P.stride > 64 || P.padding > INT_MAX / 4)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (device_major() != 9 || !wgmma_built()) return CONVT1D_ERROR_NOT_SUPPORTED;

    const int s = (int)P.stride, K = (int)P.kernel_size, d = (int)P.dilation;
    WgArgs a;
    a.bias = bias;
    a.y = y;
    a.cout = (int)P.out_channels;
    a.cin = (int)P.in_channels;
    a.L_out = (int)pr.out_length;
    a.p = (int)P.padding;
    a.ps = s;
    if (s == 1) {
        a.T = K;
        a.dj = d;
    } else {
        if (64 % s != 0) return CONVT1D_ERROR_NOT_SUPPORTED; /* merged rows must tile 64-row slices */
        a.T = (int)(((int64_t)(K - 1) * d) / s) + 1;
        a.dj = 1;
    }
    if (a.T > 64) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.M = a.cout * s;
    a.nchunk = (a.cin + kBK - 1) / kBK;
    a.q_min = a.p / s;
    const int64_t q_max = ((int64_t)a.p + a.L_out - 1) / s;
    const int64_t lq = q_max - a.q_min + 1;
    a.yvec = ((uintptr_t)y & 15) == 0;
    {
        static const int dbg = [] {
            const char *v = getenv("CONVT1D_WG_DEBUG");
            return v ? atoi(v) : 0;
        }();
        a.dbg = dbg;
    }

    const int BM = a.M <= 64 ? 64 : 128;
    constexpr int BN = 128;
    const int m_tiles = (a.M + BM - 1) / BM;
    const int64_t q_tiles = (lq + BN - 1) / BN;
    if (q_tiles > INT_MAX || m_tiles > 65535) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int M_pad = m_tiles * BM, cin_pad = a.nchunk * kBK;

    CUtensorMap tmx, tmw;
    if (!make_map(&tmx, x, (uint64_t)P.in_length, (uint64_t)a.cin, (uint64_t)P.batch, kBoxQ, kBK))
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t total = (int64_t)a.T * M_pad * cin_pad;
    void *wp = nullptr;
    cudaError_t e = cudaMallocAsync(&wp, (size_t)total * 2, stream);
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma forward: scratch: %s", cudaGetErrorString(e));
    if (!make_map(&tmw, wp, (uint64_t)cin_pad, (uint64_t)M_pad, (uint64_t)a.T, kBK, (uint32_t)BM)) {
        cudaFreeAsync(wp, stream);
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    a.gmaps = nullptr;
    if (getenv("CONVT1D_WG_GMAPS")) { /* dev: tensor maps read from global memory */
        void *g = nullptr;
        if (cudaMallocAsync(&g, 2 * sizeof(CUtensorMap), stream) == cudaSuccess) {
            cudaMemcpyAsync(g, &tmx, sizeof(CUtensorMap), cudaMemcpyHostToDevice, stream);
            cudaMemcpyAsync((char *)g + sizeof(CUtensorMap), &tmw, sizeof(CUtensorMap), cudaMemcpyHostToDevice, stream);
            cudaStreamSynchronize(stream);
            a.gmaps = (const CUtensorMap *)g; /* leaked: dev switch only */
        }
    }
    const bool bf = pr.dtype == CONVT1D_BF16;
    const unsigned pgrid = (unsigned)((total + 255) / 256);
    if (bf)
        wgmma_pack_kernel<true><<<pgrid, 256, 0, stream>>>(w, wp, a.T, M_pad, cin_pad, a.cin, a.cout, K, s, d,
                                                           pr.w_adjoint ? 1 : 0, total);
    else
        wgmma_pack_kernel<false><<<pgrid, 256, 0, stream>>>(w, wp, a.T, M_pad, cin_pad, a.cin, a.cout, K, s, d,
                                                            pr.w_adjoint ? 1 : 0, total);
    const dim3 grid((unsigned)q_tiles, (unsigned)m_tiles, (unsigned)P.batch);
    static const int pwg = [] {
        const char *v = getenv("CONVT1D_WG_PWG");
        return v && v[0] == '1';
    }();
    if (BM == 128 && pwg)
        e = bf ? launch<true, 128, BN, 3, 1, 128>(tmx, tmw, a, grid, stream)
               : launch<false, 128, BN, 3, 1, 128>(tmx, tmw, a, grid, stream);
    else if (BM == 128)
        e = bf ? launch<true, 128, BN, 3, 1>(tmx, tmw, a, grid, stream) : launch<false, 128, BN, 3, 1>(tmx, tmw, a, grid, stream);
    else
        e = bf ? launch<true, 64, BN, 4, 2>(tmx, tmw, a, grid, stream) : launch<false, 64, BN, 4, 2>(tmx, tmw, a, grid, stream);
    const cudaError_t f = cudaFreeAsync(wp, stream);
    if (e == cudaSuccess) e = f;
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma forward launch failed: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}
