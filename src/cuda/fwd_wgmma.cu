/* Hopper forward for fp16/bf16: the polyphase implicit GEMM of fwd_tc_kernel.cuh on wgmma, fed by TMA.
 *
 * GEMM (one batch row n, groups == 1), transposed so that positions are the M side:
 *   D[q, m] = sum_{j < T} sum_ci X[ci, q - j*dj] * Wm[j][m][ci]
 *   stride 1:  m = co, tap j = k, dj = d; output o = q - p.
 *   stride s dividing 64 (phases merged, see merge_phases in fwd_tc.cu): m = co*s + r, tap j holds the
 *   weight k with k*d = j*s + r (zero if none), dj = 1; output o = q*s + r - p.
 * Why this orientation: a TMA box must start 16-byte aligned along the contiguous dimension (a box at
 * q0 - 1 faults with "illegal instruction", dev/cuda/tma/tma_probe.cu), and a wgmma shared-memory
 * descriptor moves in 16-byte steps too, so the one-element tap shift cannot live in the B operand. So
 * X is the A operand, loaded from shared memory into registers at any element shift; the weights are
 * the B operand (K-major, 128-byte swizzle) straight from TMA.
 * A block owns BQ = 128 positions (two consumer warpgroups of 64) x BR rows m. Each pipeline stage is
 * one 64-channel chunk: the input window X[c*64 .. +64)[q0 - H .. q0 + BQ) (H = taps' spread rounded
 * up to 8, three 64-column TMA boxes, zero-filled outside the tensor) and the weights of all T taps
 * for that chunk (one TMA box [T][BR][64]). One producer warp issues the copies; full/empty mbarriers.
 * Epilogue: bias added, converted, staged in shared memory in output order (row co, column o, each row
 * shifted so its 16-byte global chunks line up), then written with 16-byte stores.
 *
 * Taken for: sm_90 (built as sm_90a), fp16/bf16, groups == 1, L_in a multiple of 8 (TMA row pitch),
 * x 16-byte aligned, stride 1 or dividing 64, spread (T-1)*dj <= 64, stages that fit shared memory.
 * Everything else: fwd_tc.cu's mma.sync kernel. */
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

constexpr int kBK = 64;    /* input channels per stage: one 128-byte swizzle row of 16-bit values */
constexpr int kBox = 64;   /* q columns per TMA box of the input (128 bytes) */
constexpr int kBQ = 128;   /* positions per block: two consumer warpgroups of 64 */
constexpr int kXBoxes = 3; /* input window: BQ + H <= 192 columns */
constexpr int kXBytes = kXBoxes * kBox * kBK * 2;
constexpr int kRowPad = 16; /* epilogue: elements of room per staged row for its alignment shift */
constexpr int kThreads = 2 * 128 + 32;
constexpr int kMaxSmem = 227 * 1024;

struct WgArgs {
    const void *bias;
    void *y;
    int cout, L_out, p;
    int ps;      /* phases merged into rows (1 at stride 1) */
    int T;       /* taps */
    int dj;      /* input offset between consecutive taps */
    int H;       /* window columns before q0: (T-1)*dj rounded up to 8 */
    int M;       /* GEMM rows m: cout * ps */
    int nchunk;  /* ceil(cin / 64) */
    int qa;      /* first q of tile 0: p/s rounded down to 8 */
    int stages;
    int w_bytes; /* weight bytes per stage: T * BR * 128 */
    int yvec;    /* y 16-byte aligned: full chunks use 16-byte stores */
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
/* 16-bit element (channel row r, window column x) of a stage's input window: three TMA boxes of
 * [64 rows][64 columns], each with the 128-byte swizzle (16-byte chunk index XOR row % 8). */
__device__ __forceinline__ uint32_t xwin(const unsigned char *xw, int r, int x) {
    const int b = x >> 6, c = x & 63;
    return *reinterpret_cast<const unsigned short *>(xw + b * (kBox * kBK * 2) + r * 128 +
                                                     ((((c >> 3) ^ (r & 7))) << 4) + ((c & 7) << 1));
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

template <bool BF, int BR> struct wg_mma;
template <> struct wg_mma<false, 64> {
    static __device__ __forceinline__ void run(float (&d)[32], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_f16_n64(d, a, b); }
};
template <> struct wg_mma<false, 128> {
    static __device__ __forceinline__ void run(float (&d)[64], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_f16_n128(d, a, b); }
};
template <> struct wg_mma<true, 64> {
    static __device__ __forceinline__ void run(float (&d)[32], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_bf16_n64(d, a, b); }
};
template <> struct wg_mma<true, 128> {
    static __device__ __forceinline__ void run(float (&d)[64], const uint32_t (&a)[4], uint64_t b) { wgmma_rs_bf16_n128(d, a, b); }
};

/* Stage layout: [weights T x BR x 128 B][input window kXBytes]; barriers after the last stage. */
__host__ __device__ constexpr int stage_bytes(int T, int BR) { return T * BR * 128 + kXBytes; }

template <bool BF, int BR>
__global__ void __launch_bounds__(kThreads, 1)
    fwd_wgmma_kernel(const __grid_constant__ CUtensorMap tmx, const __grid_constant__ CUtensorMap tmw, WgArgs a) {
#if CONVT1D_WG_DEVICE
    typedef half_t<BF> H;
    typedef typename H::T T;
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char *sm = (unsigned char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = smem_addr(sm);
    const int SB = a.w_bytes + kXBytes;
    const uint32_t full0 = sbase + a.stages * SB, empty0 = full0 + a.stages * 8;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int q0 = a.qa + blockIdx.x * kBQ;
    const int m0 = blockIdx.y * BR;
    const int n = blockIdx.z;

    if (tid == 0) {
        for (int s = 0; s < a.stages; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, 8); /* the 8 consumer warps */
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (warp == 8) {
        /* Producer: stage c = channel chunk c (input window and the weights of every tap). */
        if (lane == 0) {
            for (int c = 0; c < a.nchunk; ++c) {
                const int s = c % a.stages;
                if (c >= a.stages) mbar_wait(empty0 + 8 * s, ((c / a.stages) + 1) & 1);
                const uint32_t st = sbase + s * SB, bar = full0 + 8 * s;
                mbar_expect_tx(bar, SB);
                tma_load_3d(st, &tmw, bar, c * kBK, m0, 0);
#pragma unroll
                for (int b = 0; b < kXBoxes; ++b)
                    tma_load_3d(st + a.w_bytes + b * (kBox * kBK * 2), &tmx, bar, q0 - a.H + b * kBox, c * kBK, n);
            }
        }
        return;
    }

    /* Consumers: warpgroup wg owns positions [64 wg, 64 wg + 64) of the block; warp w of it rows
     * 16 w .. 16 w + 15 of the wgmma, lane (g, t) the A fragment rows g, g + 8 and channels 2t, 2t + 1
     * (+ 8), exactly the mma.m16n8k16 A layout. */
    const int g = lane >> 2, t = lane & 3;
    const int qrow = (warp >> 2) * 64 + (warp & 3) * 16 + g; /* block position of fragment row g */
    float acc[BR / 2];
#pragma unroll
    for (int i = 0; i < BR / 2; ++i) acc[i] = 0.f;
    for (int c = 0; c < a.nchunk; ++c) {
        const int s = c % a.stages;
        mbar_wait(full0 + 8 * s, (c / a.stages) & 1);
        const unsigned char *xw = sm + s * SB + a.w_bytes;
        const uint32_t wst = sbase + s * SB;
        /* A fragments of tap j: channels 16 kk + 2t (+1, +8, +9) at rows g, g + 8, window column
         * qrow + H - j*dj (any shift: these are plain 2-byte loads). */
        auto load_a = [&](uint32_t(&af)[4][4], int j) {
            const int x0 = qrow + a.H - j * a.dj;
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                const int r0 = kk * 16 + 2 * t;
                af[kk][0] = xwin(xw, r0, x0) | (xwin(xw, r0 + 1, x0) << 16);
                af[kk][1] = xwin(xw, r0, x0 + 8) | (xwin(xw, r0 + 1, x0 + 8) << 16);
                af[kk][2] = xwin(xw, r0 + 8, x0) | (xwin(xw, r0 + 9, x0) << 16);
                af[kk][3] = xwin(xw, r0 + 8, x0 + 8) | (xwin(xw, r0 + 9, x0 + 8) << 16);
            }
        };
        /* B: tap j's [BR][64] weight rows, K-major 128-byte rows, 8-row groups 1024 B apart; a k16 step
         * is 32 B along the row. */
        auto mma = [&](uint32_t(&af)[4][4], int j) {
            wg_fence();
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
                wg_mma<BF, BR>::run(acc, af[kk], desc_sw128(wst + j * (BR * 128) + kk * 32, 16, 1024));
            wg_commit();
        };
        /* One fragment buffer, waited on per tap: loading the next tap's fragments while the MMAs run
         * makes ptxas serialize the wgmmas (warning C7513); the other warpgroup fills that gap. */
        uint32_t af[4][4];
        for (int j = 0; j < a.T; ++j) {
            load_a(af, j);
            mma(af, j);
            wg_wait<0>();
        }
        wg_wait<0>(); /* the stage's weights are read until here */
        if (lane == 0) mbar_arrive(empty0 + 8 * s);
    }

    /* Epilogue. Every consumer is past its last MMA before the stage buffers are reused. */
    named_sync(1, 256);
    const int R = BR / a.ps;         /* output channels of this block */
    const int W = kBQ * a.ps;        /* output positions per channel */
    const int pitch = W + kRowPad;   /* elements; a multiple of 8 */
    T *tile = reinterpret_cast<T *>(sm);
    const int64_t obase = (int64_t)q0 * a.ps - a.p; /* output position of tile column 0 */
    const int co0 = m0 / a.ps;
    /* Row shift: global element (row base + obase) sits at column `shift` (its offset in a 16-byte chunk). */
    auto row_shift = [&](int co) -> int {
        const int64_t e = ((int64_t)n * a.cout + co) * a.L_out + obase;
        return (int)(((e % 8) + 8) % 8);
    };
#pragma unroll
    for (int i = 0; i < BR / 8; ++i) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const int ml = i * 8 + 2 * t + u; /* block row m of accumulators acc[4i + u], acc[4i + 2 + u] */
            const int col = ml / a.ps, r = ml - col * a.ps;
            const int co = co0 + col;
            const float bv = a.bias && m0 + ml < a.M ? H::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
            T *row = tile + col * pitch + row_shift(co) + r;
            row[qrow * a.ps] = H::from_f(acc[4 * i + u] + bv);
            row[(qrow + 8) * a.ps] = H::from_f(acc[4 * i + 2 + u] + bv);
        }
    }
    named_sync(1, 256);
    /* 16-byte chunks of each output row, aligned in global memory. */
    const int chunks = W / 8 + 2;
    T *y = static_cast<T *>(a.y);
    const int64_t o_lo = obase > 0 ? obase : 0;
    const int64_t o_hi = obase + W < a.L_out ? obase + W : a.L_out;
    for (int e = tid; e < R * chunks; e += 256) {
        const int col = e / chunks, k = e - col * chunks;
        const int co = co0 + col;
        if (co >= a.cout || o_lo >= o_hi) continue;
        const int64_t gb = ((int64_t)n * a.cout + co) * a.L_out;
        const int64_t start = gb + obase - row_shift(co); /* a multiple of 8: tile column 0 of this row */
        const int64_t c0 = start + 8 * k;                 /* this chunk's first element */
        if (c0 + 8 <= gb + o_lo || c0 >= gb + o_hi) continue;
        const T *src = tile + col * pitch + 8 * k;
        if (a.yvec && c0 >= gb + o_lo && c0 + 8 <= gb + o_hi) {
            *reinterpret_cast<uint4 *>(y + c0) = *reinterpret_cast<const uint4 *>(src);
        } else {
            for (int v = 0; v < 8; ++v)
                if (c0 + v >= gb + o_lo && c0 + v < gb + o_hi) y[c0 + v] = src[v];
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

/* 3D tiled map over 16-bit data [d2][d1][d0] (d0 contiguous), box b0 x b1 x b2, 128-byte swizzle. */
bool make_map(CUtensorMap *m, const void *base, uint64_t d0, uint64_t d1, uint64_t d2, uint32_t b0, uint32_t b1,
              uint32_t b2) {
    PFN_cuTensorMapEncodeTiled_v12000 fn = encode_fn();
    if (!fn) return false;
    const cuuint64_t dims[3] = {d0, d1, d2};
    const cuuint64_t strides[2] = {d0 * 2, d0 * d1 * 2};
    const cuuint32_t box[3] = {b0, b1, b2};
    const cuuint32_t es[3] = {1, 1, 1};
    return fn(m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, const_cast<void *>(base), dims, strides, box, es,
              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

template <bool BF, int BR>
cudaError_t launch(const CUtensorMap &tmx, const CUtensorMap &tmw, const WgArgs &a, dim3 grid, int smem,
                   cudaStream_t stream) {
    auto kern = fwd_wgmma_kernel<BF, BR>;
    static bool attr_set = false; /* the maximum, once per process */
    if (!attr_set) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, kMaxSmem);
        if (e != cudaSuccess) return e;
        attr_set = true;
    }
    kern<<<grid, kThreads, smem, stream>>>(tmx, tmw, a);
    return cudaGetLastError();
}

/* Whether the kernels were compiled for sm_90a (a build for other architectures only has the trap). */
bool wgmma_built() {
    static int built = -1;
    if (built < 0) {
        cudaFuncAttributes fa;
        built = cudaFuncGetAttributes(&fa, fwd_wgmma_kernel<true, 128>) == cudaSuccess && fa.ptxVersion >= 90 &&
                fa.binaryVersion == 90;
        cudaGetLastError();
    }
    return built == 1;
}

}  // namespace

/* CONVT1D_WGMMA (read at every call, for tests and A/B timing): unset, the heuristic; 0 off; 1 every
 * shape the kernel takes. */
convt1d_status convt1d_fwd_wgmma(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                 cudaStream_t stream) {
    const char *ev = getenv("CONVT1D_WGMMA");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    if (env == 0 || (pr.dtype != CONVT1D_F16 && pr.dtype != CONVT1D_BF16)) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.groups != 1 || P.batch == 0 || P.in_length % 8 != 0 || ((uintptr_t)x & 15) != 0)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.in_length >= INT_MAX / 2 || pr.out_length >= INT_MAX / 2 || P.batch > 65535 || P.in_channels > 65535 ||
        P.out_channels > 65535 || P.kernel_size > 4096 || P.dilation > 65535 || P.stride > 64 || P.padding > INT_MAX / 4)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (convt1d_sm_major() != 9 || !wgmma_built()) return CONVT1D_ERROR_NOT_SUPPORTED;

    const int s = (int)P.stride, K = (int)P.kernel_size, d = (int)P.dilation;
    WgArgs a;
    a.bias = bias;
    a.y = y;
    a.cout = (int)P.out_channels;
    const int cin = (int)P.in_channels;
    a.L_out = (int)pr.out_length;
    a.p = (int)P.padding;
    a.ps = s;
    if (s == 1) {
        a.T = K;
        a.dj = d;
    } else {
        if (64 % s != 0) return CONVT1D_ERROR_NOT_SUPPORTED; /* merged rows must tile the 64-row slices */
        a.T = (int)(((int64_t)(K - 1) * d) / s) + 1;
        a.dj = 1;
    }
    /* Where it pays (H100, run 19, ms, fp16/bf16, this kernel vs the mma.sync one): the compute-bound
     * merged stride-8 layers, cin*T >= 1024 multiply-adds per output (upsample_x8 2.20 vs 2.59,
     * hifigan_up1 0.605 vs 0.70, codec_dec_s8 1.10 vs 1.60); not the lighter ones (hifigan_up2, cin*T
     * 512: 1.63 vs 1.51) nor the memory-bound stride 1/2 shapes (KernelBench 74: 1.73 vs 0.81), whose
     * fragment loads and unoverlapped epilogue this kernel does not hide yet. */
    if (env < 0 && (int64_t)P.in_channels * a.T < 1024) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t spread = (int64_t)(a.T - 1) * a.dj;
    if (spread > kXBoxes * kBox - kBQ) return CONVT1D_ERROR_NOT_SUPPORTED; /* the window holds BQ + 64 columns */
    a.H = (int)((spread + 7) / 8 * 8);
    a.M = a.cout * s;
    a.nchunk = (cin + kBK - 1) / kBK;
    const int q_min = a.p / s;
    a.qa = q_min / 8 * 8; /* tiles start 8-aligned: the window's TMA boxes must start 16-byte aligned */
    const int64_t q_max = ((int64_t)a.p + a.L_out - 1) / s;
    a.yvec = ((uintptr_t)y & 15) == 0;

    const int BR = a.M <= 64 ? 64 : 128;
    a.w_bytes = a.T * BR * 128;
    const int SB = stage_bytes(a.T, BR);
    a.stages = (kMaxSmem - 1024 - 64) / SB;
    if (a.stages > 4) a.stages = 4;
    if (a.stages < 2 || a.T > 256) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int smem = a.stages * SB + a.stages * 16 + 1024;
    const int r_tiles = (a.M + BR - 1) / BR;
    const int64_t q_tiles = (q_max - a.qa + 1 + kBQ - 1) / kBQ;
    if (q_tiles > INT_MAX || r_tiles > 65535) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int M_pad = r_tiles * BR, cin_pad = a.nchunk * kBK;

    CUtensorMap tmx, tmw;
    if (!make_map(&tmx, x, (uint64_t)P.in_length, (uint64_t)cin, (uint64_t)P.batch, kBox, kBK, 1))
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t total = (int64_t)a.T * M_pad * cin_pad;
    void *wp = nullptr;
    cudaError_t e = cudaMallocAsync(&wp, (size_t)total * 2, stream);
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma forward: scratch: %s", cudaGetErrorString(e));
    if (!make_map(&tmw, wp, (uint64_t)cin_pad, (uint64_t)M_pad, (uint64_t)a.T, kBK, (uint32_t)BR, (uint32_t)a.T)) {
        cudaFreeAsync(wp, stream);
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    const bool bf = pr.dtype == CONVT1D_BF16;
    const unsigned pgrid = (unsigned)((total + 255) / 256);
    if (bf)
        wgmma_pack_kernel<true><<<pgrid, 256, 0, stream>>>(w, wp, a.T, M_pad, cin_pad, cin, a.cout, K, s, d,
                                                           pr.w_adjoint ? 1 : 0, total);
    else
        wgmma_pack_kernel<false><<<pgrid, 256, 0, stream>>>(w, wp, a.T, M_pad, cin_pad, cin, a.cout, K, s, d,
                                                            pr.w_adjoint ? 1 : 0, total);
    const dim3 grid((unsigned)q_tiles, (unsigned)r_tiles, (unsigned)P.batch);
    if (BR == 128)
        e = bf ? launch<true, 128>(tmx, tmw, a, grid, smem, stream) : launch<false, 128>(tmx, tmw, a, grid, smem, stream);
    else
        e = bf ? launch<true, 64>(tmx, tmw, a, grid, smem, stream) : launch<false, 64>(tmx, tmw, a, grid, smem, stream);
    const cudaError_t f = cudaFreeAsync(wp, stream);
    if (e == cudaSuccess) e = f;
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma forward launch failed: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}
