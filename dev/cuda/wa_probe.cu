/* Weights as the wgmma A operand, x transposed in shared memory as B (session 40): a probe of the stride-1 TF32
 * forward in the other orientation.
 *
 * The register-A forward (src/cuda/fwd_wgmma.cu) puts output positions on M (64 per warpgroup) and C_out on N:
 * every k-step loads its A fragment (x, shifted by the tap) from shared memory into registers and rounds it, and
 * reads the weights as B from shared memory. At KernelBench 74 (C_out 64) that is 2 KB of A loads and 2 KB of B
 * reads per 64x64x8 MMA, and the rounding adds wait on the loads (run 391: short scoreboard 15% of the samples).
 * Here C_out is M (64 rows: the weights, resident in shared memory as A), positions are N (128 or 256 per MMA),
 * and x is B: K-major with no swizzle, i.e. x_t[channel group of 4][position][4 channels], 16 bytes per position.
 * A core matrix is then 8 consecutive positions x 16 bytes, so a tap's shift by any number of positions moves the
 * descriptor's start by 16 bytes per position and keeps every core matrix intact: no per-tap copies, no loads
 * into registers, 20 back-to-back MMAs per tile at KernelBench 74. The threads transpose (and round) x while
 * writing it: each thread loads 4 channels x 4 positions (four 16-byte loads) and stores 4 positions x 4
 * channels (four 16-byte stores), the next tile's loads in flight during this tile's MMAs. Several one-warpgroup
 * blocks per SM overlap one another's loads, MMAs and stores, as many small programs do (session 20's probe: 96%
 * of the copy for this traffic).
 *
 * Scope: stride 1, no padding, groups 1, C_out 64, C_in a multiple of 8 (template), fp32 in, TF32 MMAs (x and
 * weights rounded to nearest as the library does), fp32 out. Called through wa_run() (ctypes, dev/python/wa_probe.py).
 *
 *   nvcc -O3 -std=c++17 -shared -Xcompiler -fPIC -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
 *        -o /tmp/wa_probe.so dev/cuda/wa_probe.cu */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include "../../src/cuda/wgmma_ops.cuh"

namespace {

constexpr int M = 64; /* C_out: one wgmma M tile */

__device__ __forceinline__ float rnd_tf32(float v) {
    return __uint_as_float((__float_as_uint(v) + 0x1000u) & 0xffffe000u);
}
__device__ __forceinline__ uint32_t saddr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ uint64_t desc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32);
}
__device__ __forceinline__ float pick(float4 v, int j) {
    float r = v.x;
    r = j == 1 ? v.y : r;
    r = j == 2 ? v.z : r;
    r = j == 3 ? v.w : r;
    return r;
}

template <int NP> struct Mma;
template <> struct Mma<64> {
    static __device__ __forceinline__ void run(float (&d)[32], uint64_t a, uint64_t b) { wgmma_ss_tf32_n64(d, a, b); }
};
template <> struct Mma<128> {
    static __device__ __forceinline__ void run(float (&d)[64], uint64_t a, uint64_t b) { wgmma_ss_tf32_n128(d, a, b); }
};
template <> struct Mma<256> {
    static __device__ __forceinline__ void run(float (&d)[128], uint64_t a, uint64_t b) { wgmma_ss_tf32_n256(d, a, b); }
};

struct Args {
    const float *x, *w;
    float *y;
    int L, Lout, dil, halo, wp, tiles_per_n, tiles, swap, rot;
    int mode; /* timing probes: bit 0 no MMAs, bit 1 no x loads (the first tile's values reused), bit 2 no y stores */
};

/* The pieces every form shares. */
/* The weights as A, rounded: k-step s = tap t x channel block kb, each 64 x 8 in 2 K-groups x 8 M-groups x 8 rows x
 * 4 (the no-swizzle K-major layout: LBO 1024 bytes between K-groups, SBO 128 between M-groups). */
template <int CIN, int T>
__device__ __forceinline__ void stage_weights(float *wsm, const float *w, int first, int step) {
    constexpr int KB = CIN / 8, KS = KB * T;
    for (int e = first; e < KS * 512; e += step) {
        const int s = e >> 9, r = e & 511, kg = r >> 8, mg = (r >> 5) & 7, row = (r >> 2) & 7, c = r & 3;
        const int t = s / KB, kb = s % KB, m = mg * 8 + row, k = kb * 8 + kg * 4 + c;
        wsm[e] = rnd_tf32(w[((size_t)k * M + m) * T + t]);
    }
}
/* Row `row`'s 4 positions p..p+3 (zeros outside 0..L-1) by one 16-byte load where aligned and inside. */
__device__ __forceinline__ float4 load_quad(const float *row, int p, int L) {
    if (p >= 0 && p + 3 < L && (L & 3) == 0) return __ldg(reinterpret_cast<const float4 *>(row + p));
    float4 v;
    v.x = (p + 0 >= 0 && p + 0 < L) ? row[p + 0] : 0.f;
    v.y = (p + 1 >= 0 && p + 1 < L) ? row[p + 1] : 0.f;
    v.z = (p + 2 >= 0 && p + 2 < L) ? row[p + 2] : 0.f;
    v.w = (p + 3 >= 0 && p + 3 < L) ? row[p + 3] : 0.f;
    return v;
}
/* The same into shared memory by cp.async (4-byte copies, zero-filled, where the 16-byte one cannot go). */
__device__ __forceinline__ void copy_quad(uint32_t dst, const float *row, int p, int L, const float *any) {
    if (p >= 0 && p + 3 < L && (L & 3) == 0) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(row + p) : "memory");
    } else {
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const bool in = p + e >= 0 && p + e < L;
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(dst + 4 * e), "l"(in ? row + p + e : any),
                         "r"(in ? 4 : 0) : "memory");
        }
    }
}
/* A tile's x window into registers: item it = (channel group it / WQ, position quad it % WQ), 4 channels x 4
 * positions each, the window starting at (p0 - halo) rounded down to 4. */
template <int CIN, int IT>
__device__ __forceinline__ void load_window(float4 (&v)[IT][4], const Args &a, int b, int p0, int tid, int items, int WQ) {
    const int ws = (p0 - a.halo) & ~3;
    const float *xb = a.x + (size_t)b * CIN * a.L;
#pragma unroll
    for (int u = 0; u < IT; u++) {
        const int it = tid + u * 128;
        if (it < items) {
            const int cg = it / WQ, p = ws + 4 * (it % WQ);
#pragma unroll
            for (int i = 0; i < 4; i++) v[u][i] = load_quad(xb + (size_t)(4 * cg + i) * a.L, p, a.L);
        }
    }
}
/* ... transposed and rounded into x_t[cg][position][4]; rot: lanes start at position (lane / 2) mod 4 of their quad,
 * so that a warp's 16-byte stores spread over the banks (64 bytes apart otherwise: 4-way conflicts). */
template <int IT>
__device__ __forceinline__ void put_window(const float4 (&v)[IT][4], float *xs, int wp, int tid, int lane, int items,
                                           int WQ, bool rot) {
#pragma unroll
    for (int u = 0; u < IT; u++) {
        const int it = tid + u * 128;
        if (it < items) {
            const int cg = it / WQ, w0 = 4 * (it % WQ), r = rot ? (lane >> 1) & 3 : 0;
#pragma unroll
            for (int jj = 0; jj < 4; jj++) {
                const int j = (jj + r) & 3;
                float4 o;
                o.x = rnd_tf32(pick(v[u][0], j));
                o.y = rnd_tf32(pick(v[u][1], j));
                o.z = rnd_tf32(pick(v[u][2], j));
                o.w = rnd_tf32(pick(v[u][3], j));
                *reinterpret_cast<float4 *>(xs + ((size_t)cg * wp + w0 + j) * 4) = o;
            }
        }
    }
}
/* A tile's MMAs: tap t, channel block kb reads x_t from position n + off + halo - t * dil (16 bytes a position). */
template <int CIN, int T, int NP>
__device__ __forceinline__ void tile_mmas(float (&d)[NP / 2], uint32_t wbase, uint32_t xbase, const Args &a, int off,
                                          uint32_t albo, uint32_t asbo, uint32_t blbo, uint32_t bsbo) {
    constexpr int KB = CIN / 8;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int t = 0; t < T; t++) {
#pragma unroll
        for (int kb = 0; kb < KB; kb++) {
            const uint64_t da = desc(wbase + (t * KB + kb) * 2048, albo, asbo);
            const uint32_t xb = xbase + ((2 * kb * a.wp) + off + a.halo - t * a.dil) * 16;
            Mma<NP>::run(d, da, desc(xb, blbo, bsbo));
        }
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}
/* The accumulators into a shared tile of row pitch `pitch` floats. D fragment: row warp * 16 + lane / 4 (+8),
 * columns 8j + 2 (lane % 4) (+1). */
template <int NP>
__device__ __forceinline__ void stage_tile(const float (&d)[NP / 2], float *ys, int pitch, int warp, int lane) {
    const int r0 = warp * 16 + (lane >> 2), c0 = 2 * (lane & 3);
#pragma unroll
    for (int j = 0; j < NP / 8; j++) {
        float *yr = ys + r0 * pitch + 8 * j + c0;
        *reinterpret_cast<float2 *>(yr) = make_float2(d[4 * j + 0], d[4 * j + 1]);
        *reinterpret_cast<float2 *>(yr + 8 * pitch) = make_float2(d[4 * j + 2], d[4 * j + 3]);
    }
}
__device__ __forceinline__ void send_row(float *dst, uint32_t src, int bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(src), "r"(bytes) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
__device__ __forceinline__ void mb_init(uint32_t b, int n) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(n) : "memory");
}
__device__ __forceinline__ void mb_arrive(uint32_t b) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b) : "memory");
}
__device__ __forceinline__ void mb_wait(uint32_t b, uint32_t parity) {
    asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W;\n}\n" ::"r"(b),
                 "r"(parity) : "memory");
}

/* Host: the fields every form sets (wp, the stage pitch, is the caller's), and the SM count. */
inline Args make_args(const float *x, const float *w, float *y, int n, int L, int dil, int taps, int tile_positions,
                      int mode) {
    Args a;
    a.x = x; a.w = w; a.y = y; a.L = L; a.dil = dil; a.halo = dil * (taps - 1); a.Lout = L + a.halo;
    a.wp = 0;
    a.tiles_per_n = (a.Lout + tile_positions - 1) / tile_positions;
    a.tiles = n * a.tiles_per_n;
    a.swap = 0; a.rot = 1; a.mode = mode;
    return a;
}
inline int sm_count() {
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    return sms;
}

/* One warpgroup per block; a tile is all 64 output channels x NP positions of one sample. */
template <int CIN, int T, int NP, int MINB>
__global__ void __launch_bounds__(128, MINB) wa_fwd(Args a) {
    constexpr int KB = CIN / 8, KS = KB * T, CG = CIN / 4;
    extern __shared__ __align__(128) float sm[];
    float *wsm = sm;            /* KS k-steps x (2 K-groups x 8 M-groups x 8 rows x 4) */
    float *xsm = sm + KS * 512; /* CG x wp x 4 */
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int WQ = a.wp / 4, items = CG * WQ;
    constexpr int IT = (CG * ((NP + 32) / 4) + 127) / 128; /* upper bound of items per thread (halo <= 28) */

    stage_weights<CIN, T>(wsm, a.w, tid, 128);

    float4 v[IT][4];
    auto load = [&](int tile) { load_window<CIN, IT>(v, a, tile / a.tiles_per_n, (tile % a.tiles_per_n) * NP, tid, items, WQ); };

    int tile = blockIdx.x;
    if (tile < a.tiles) load(tile);
    const bool do_mma = !(a.mode & 1), do_load = !(a.mode & 2), do_store = !(a.mode & 4);
    const uint32_t wbase = saddr(wsm), xbase = saddr(xsm);
    const uint32_t albo = a.swap ? 128 : 1024, asbo = a.swap ? 1024 : 128;
    const uint32_t blbo = a.swap ? 128 : (uint32_t)a.wp * 16, bsbo = a.swap ? (uint32_t)a.wp * 16 : 128;

    for (; tile < a.tiles; tile += gridDim.x) {
        const int b = tile / a.tiles_per_n, p0 = (tile % a.tiles_per_n) * NP;
        const int off = (p0 - a.halo) - ((p0 - a.halo) & ~3);
        __syncthreads(); /* the previous tile's MMAs (every warp waited on them) no longer read xsm */
        put_window<IT>(v, xsm, a.wp, tid, lane, items, WQ, a.rot);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        if (do_load && tile + (int)gridDim.x < a.tiles) load(tile + gridDim.x); /* in flight during the MMAs */

        float d[NP / 2];
#pragma unroll
        for (int i = 0; i < NP / 2; i++) d[i] = 0.f;
        if (do_mma) tile_mmas<CIN, T, NP>(d, wbase, xbase, a, off, albo, asbo, blbo, bsbo);

        /* D fragment: row warp*16 + lane/4 (+8), columns 8j + 2(lane%4) (+1) */
        const int r0 = warp * 16 + (lane >> 2), c0 = 2 * (lane & 3);
        float *y0 = a.y + ((size_t)b * M + r0) * a.Lout + p0, *y1 = y0 + (size_t)8 * a.Lout;
        const int lim = a.Lout - p0;
        const bool vec = (a.Lout & 1) == 0;
        if (!do_store && d[0] != 12345.f) continue;
#pragma unroll
        for (int j = 0; j < NP / 8; j++) {
            const int c = 8 * j + c0;
            if (vec && c + 1 < lim) {
                *reinterpret_cast<float2 *>(y0 + c) = make_float2(d[4 * j + 0], d[4 * j + 1]);
                *reinterpret_cast<float2 *>(y1 + c) = make_float2(d[4 * j + 2], d[4 * j + 3]);
            } else {
                if (c < lim) { y0[c] = d[4 * j + 0]; y1[c] = d[4 * j + 2]; }
                if (c + 1 < lim) { y0[c + 1] = d[4 * j + 1]; y1[c + 1] = d[4 * j + 3]; }
            }
        }
    }
}

template <int CIN, int T, int NP, int MINB>
int launch(const float *x, const float *w, float *y, int n, int L, int dil, int ctas, int swap, int rot,
           int mode, cudaStream_t st) {
    Args a = make_args(x, w, y, n, L, dil, T, NP, mode);
    if (a.halo > 28) return -2;
    a.wp = (NP + a.halo + 3 + 7) & ~7;
    a.swap = swap; a.rot = rot;
    const size_t smem = (size_t)(CIN / 8 * T * 512 + CIN / 4 * a.wp * 4) * sizeof(float);
    auto k = wa_fwd<CIN, T, NP, MINB>;
    if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) return -3;
    int occ = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, 128, smem);
    if (occ < 1) return -4;
    if (ctas <= 0 || ctas > occ) ctas = occ;
    int grid = sm_count() * ctas;
    if (grid > a.tiles) grid = a.tiles;
    k<<<grid, 128, smem, st>>>(a);
    return cudaGetLastError() == cudaSuccess ? ctas : -5;
}

/* The same per warpgroup, with NW warpgroups per block sharing the resident weights, and the output staged: each
 * warpgroup writes its accumulators to a shared-memory tile (row pitch NP + 4 floats: the fragment's 8-byte stores
 * take the minimum two wavefronts) and sends each row with one bulk copy, drained while its next tile computes.
 * Run 402 (the direct 8-byte fragment stores above) wrote y at ~1.36 TB/s alone (mode 3). */
template <int CIN, int T, int NP, int NW, int PW>
__global__ void __launch_bounds__(128 * NW, 1) wa_fwd_st(Args a) {
    constexpr int KB = CIN / 8, KS = KB * T, CG = CIN / 4, TP = NP * PW, YP = TP + 4;
    extern __shared__ __align__(128) float sm[];
    const int wg = threadIdx.x >> 7, tid = threadIdx.x & 127, lane = tid & 31, warp = tid >> 5;
    const int grp = wg / PW, h = wg % PW; /* PW warpgroups share a tile of PW x NP positions, h's part at h x NP */
    float *wsm = sm;
    float *xsm = sm + KS * 512 + wg * (CG * a.wp * 4);
    float *ysm = sm + KS * 512 + NW * (CG * a.wp * 4) + grp * (M * YP);
    const int WQ = a.wp / 4, items = CG * WQ;
    constexpr int IT = (CG * ((NP + 32) / 4) + 127) / 128;
    auto wg_sync = [&]() { asm volatile("bar.sync %0, %1;" ::"r"(1 + grp), "r"(128 * PW) : "memory"); };
    const bool do_mma = !(a.mode & 1), do_load = !(a.mode & 2), do_store = !(a.mode & 4);

    stage_weights<CIN, T>(wsm, a.w, threadIdx.x, 128 * NW);

    float4 v[IT][4];
    auto load = [&](int tile) {
        load_window<CIN, IT>(v, a, tile / a.tiles_per_n, (tile % a.tiles_per_n) * TP + h * NP, tid, items, WQ);
    };

    const int step = gridDim.x * (NW / PW);
    int tile = blockIdx.x * (NW / PW) + grp;
    if (tile < a.tiles) load(tile);
    __syncthreads(); /* the weights */
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    const uint32_t wbase = saddr(wsm), xbase = saddr(xsm), ybase = saddr(ysm);
    const uint32_t blbo = (uint32_t)a.wp * 16;
    const bool bulk_ok = ((a.Lout * 4) & 15) == 0;

    for (; tile < a.tiles; tile += step) {
        const int b = tile / a.tiles_per_n, p0 = (tile % a.tiles_per_n) * TP, ph = p0 + h * NP;
        const int off = (ph - a.halo) - ((ph - a.halo) & ~3);
        wg_sync(); /* the previous tile's MMAs no longer read xsm */
        put_window<IT>(v, xsm, a.wp, tid, lane, items, WQ, true);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        wg_sync();
        if (do_load && tile + step < a.tiles) load(tile + step); /* in flight during the MMAs */

        float d[NP / 2];
#pragma unroll
        for (int i = 0; i < NP / 2; i++) d[i] = 0.f;
        if (do_mma) tile_mmas<CIN, T, NP>(d, wbase, xbase, a, off, 1024, 128, blbo, 128);
        if (!do_store) continue;
        const bool issuer = h == 0 && tid < M;

        if (issuer) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); /* ysm free again */
        wg_sync();
        stage_tile<NP>(d, ysm + h * NP, YP, warp, lane);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        wg_sync();
        const int n = min(TP, a.Lout - p0);
        float *yt = a.y + (size_t)b * M * a.Lout + p0;
        if (bulk_ok && ((n * 4) & 15) == 0) {
            if (issuer) send_row(yt + (size_t)tid * a.Lout, ybase + tid * YP * 4, n * 4);
        } else {
            for (int e = tid + h * 128; e < M * TP; e += 128 * PW) {
                const int r = e / TP, c = e % TP;
                if (c < n) yt[(size_t)r * a.Lout + c] = ysm[r * YP + c];
            }
        }
    }
    if (h == 0 && tid < M) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

template <int CIN, int T, int NP, int NW, int PW>
int launch_st(const float *x, const float *w, float *y, int n, int L, int dil, int mode, cudaStream_t st) {
    Args a = make_args(x, w, y, n, L, dil, T, NP * PW, mode);
    if (a.halo > 28) return -2;
    a.wp = (NP + a.halo + 3 + 7) & ~7;
    const size_t smem =
        (size_t)(CIN / 8 * T * 512 + NW * (CIN / 4 * a.wp * 4) + NW / PW * M * (NP * PW + 4)) * sizeof(float);
    auto k = wa_fwd_st<CIN, T, NP, NW, PW>;
    if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) return -3;
    int grid = sm_count();
    if (grid * (NW / PW) > a.tiles) grid = (a.tiles + NW / PW - 1) / (NW / PW);
    k<<<grid, 128 * NW, smem, st>>>(a);
    return cudaGetLastError() == cudaSuccess ? NW : -5;
}

/* Warp-specialized form (run 402e showed the staged kernel's time = its stores alone + its loads and MMAs alone:
 * each warpgroup runs transpose, MMAs and stores in turn, so the three barely overlap). Warpgroup 0 loads and
 * transposes x into a ring of S stages (two tiles' loads in registers: tile i + 1's in flight while tile i is
 * written); warpgroups 1 and 2 take the block's tiles in turn (ping-pong), each: wait for the stage, 20 MMAs, release
 * it, stage its accumulators and send them by bulk copies (16 lanes of each warp issue a row each) while the other
 * runs its MMAs. */

/* A warp-specialized consumer's tile i (wa_fwd_ws, wa_fwd_ws2): its batch row b and first position p0; the MMAs from
 * stage i % S once the producer has filled it (none in timing mode bit 0), then the stage handed back. */
template <int CIN, int T, int NP, int S>
__device__ __forceinline__ void ws_tile(float (&d)[NP / 2], const Args &a, int i, const float *xsm, int xst,
                                        uint32_t wbase, uint32_t blbo, uint32_t full0, uint32_t empty0, int lane, int &b,
                                        int &p0) {
    const int tile = blockIdx.x + i * gridDim.x, s = i % S;
    b = tile / a.tiles_per_n;
    p0 = (tile % a.tiles_per_n) * NP;
    const int off = (p0 - a.halo) - ((p0 - a.halo) & ~3);
    const uint32_t xbase = saddr(xsm + s * xst);
#pragma unroll
    for (int q = 0; q < NP / 2; q++) d[q] = 0.f;
    mb_wait(full0 + 8 * s, (i / S) & 1);
    if (!(a.mode & 1)) tile_mmas<CIN, T, NP>(d, wbase, xbase, a, off, 1024, 128, blbo, 128);
    if (lane == 0) mb_arrive(empty0 + 8 * s);
}

template <int CIN, int T, int NP, int S, int D, int P>
__global__ void __launch_bounds__(128 * (P + 2), 1) wa_fwd_ws(Args a) {
    static_assert(D > 0 || P == 1, "two producer warpgroups need the cp.async path");
    /* each stage has one producer (tiles i = i mod S), so a producer is never two phases ahead on a barrier's
     * parity: with S = 3, P = 2 the producer of tile 6 could pass its empty wait on stage 0 before tile 0 was
     * released (parity ABA; run 402i hung in the timing) */
    static_assert(S % P == 0, "the stages must split evenly between the producers");
    constexpr int KB = CIN / 8, KS = KB * T, CG = CIN / 4, YP = NP + 4;
    extern __shared__ __align__(128) float sm[];
    const int wg = threadIdx.x >> 7, tid = threadIdx.x & 127, lane = tid & 31, warp = tid >> 5;
    const int xst = CG * a.wp * 4; /* floats per stage */
    float *wsm = sm, *xsm = sm + KS * 512, *ysm = xsm + S * xst;
    float *raw = ysm + 2 * M * YP; /* D > 0: D stages of cp.async copies, item-major: 4 channels x float4 per item */
    uint64_t *bars = reinterpret_cast<uint64_t *>(raw + P * D * CG * a.wp * 4); /* full[S], empty[S] */
    const uint32_t full0 = saddr(bars), empty0 = full0 + 8 * S;
    const int ntiles = a.tiles > (int)blockIdx.x ? (a.tiles - 1 - blockIdx.x) / gridDim.x + 1 : 0;

    stage_weights<CIN, T>(wsm, a.w, threadIdx.x, 128 * (P + 2));
    if (threadIdx.x == 0) {
        for (int i = 0; i < S; i++) { mb_init(full0 + 8 * i, 128); mb_init(empty0 + 8 * i, 4); }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    if (wg < P) { /* producers (tiles wg, wg + P, ...): loads, transposes, rounds */
        const int WQ = a.wp / 4, items = CG * WQ;
        constexpr int IT = (CG * ((NP + 32) / 4) + 127) / 128;
        float4 v[2][IT][4];
        auto load = [&](float4 (&vv)[IT][4], int i) {
            const int tile = blockIdx.x + i * gridDim.x;
            load_window<CIN, IT>(vv, a, tile / a.tiles_per_n, (tile % a.tiles_per_n) * NP, tid, items, WQ);
        };
        auto put = [&](float4 (&vv)[IT][4], int i) {
            const int s = i % S;
            mb_wait(empty0 + 8 * s, ((i / S) & 1) ^ 1);
            float *xs = xsm + s * xst;
            put_window<IT>(vv, xs, a.wp, tid, lane, items, WQ, true);
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            mb_arrive(full0 + 8 * s);
        };
        if constexpr (D > 0) {
            /* cp.async: each thread copies its own items of tile i into raw stage i % D, D tiles ahead, and later
             * reads back only what it copied itself, so the producer needs no barrier of its own */
            auto issue = [&](int j) { /* this producer's j-th tile */
                const int i = wg + j * P;
                if (i < ntiles && !(a.mode & 2)) {
                    const int tile = blockIdx.x + i * gridDim.x;
                    const int b = tile / a.tiles_per_n, p0 = (tile % a.tiles_per_n) * NP;
                    const int ws = (p0 - a.halo) & ~3;
                    const float *xb = a.x + (size_t)b * CIN * a.L;
                    const uint32_t rs = saddr(raw + (wg * D + j % D) * xst);
#pragma unroll
                    for (int u = 0; u < IT; u++) {
                        const int it = tid + u * 128;
                        if (it < items) {
                            const int cg = it / WQ, p = ws + 4 * (it % WQ);
#pragma unroll
                            for (int q = 0; q < 4; q++) {
                                const float *row = xb + (size_t)(4 * cg + q) * a.L;
                                copy_quad(rs + (it * 4 + q) * 16, row, p, a.L, a.x);
                            }
                        }
                    }
                }
                asm volatile("cp.async.commit_group;" ::: "memory");
            };
            for (int j = 0; j < D; j++) issue(j);
            for (int j = 0; wg + j * P < ntiles; j++) {
                const int i = wg + j * P;
                asm volatile("cp.async.wait_group %0;" ::"n"(D - 1) : "memory");
                const float *rs = raw + (wg * D + j % D) * xst;
#pragma unroll
                for (int u = 0; u < IT; u++) {
                    const int it = tid + u * 128;
                    if (it < items) {
#pragma unroll
                        for (int q = 0; q < 4; q++) v[0][u][q] = *reinterpret_cast<const float4 *>(rs + (it * 4 + q) * 4);
                    }
                }
                issue(j + D);
                put(v[0], i);
            }
            return;
        }
        if (ntiles > 0) load(v[0], 0);
        for (int i = 0; i < ntiles; i += 2) {
            if (i + 1 < ntiles) load(v[1], i + 1);
            put(v[0], i);
            if (i + 1 < ntiles) {
                if (i + 2 < ntiles) load(v[0], i + 2);
                put(v[1], i + 1);
            }
        }
        return;
    }

    /* consumers */
    const int c = wg - P;
    float *ys = ysm + c * M * YP;
    const uint32_t wbase = saddr(wsm), ybase = saddr(ys), blbo = (uint32_t)a.wp * 16;
    const bool bulk_ok = ((a.Lout * 4) & 15) == 0;
    auto cs_sync = [&]() { asm volatile("bar.sync %0, 128;" ::"r"(1 + c) : "memory"); };
    for (int i = c; i < ntiles; i += 2) {
        float d[NP / 2];
        int b, p0;
        ws_tile<CIN, T, NP, S>(d, a, i, xsm, xst, wbase, blbo, full0, empty0, lane, b, p0);
        if (a.mode & 4) continue;

        const bool issuer = lane < 16;
        if (issuer) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); /* ys free again */
        cs_sync();
        stage_tile<NP>(d, ys, YP, warp, lane);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        cs_sync();
        const int n = min(NP, a.Lout - p0);
        float *yt = a.y + (size_t)b * M * a.Lout + p0;
        if ((a.mode & 8) && (a.Lout & 3) == 0) { /* 16-byte stores: a warp writes 16 rows, 512 bytes per instruction */
            for (int r = warp * 16; r < warp * 16 + 16; r++) {
                for (int c4 = lane; 4 * c4 < n; c4 += 32) {
                    const float4 val = *reinterpret_cast<const float4 *>(ys + r * YP + 4 * c4);
                    if (4 * c4 + 3 < n) {
                        *reinterpret_cast<float4 *>(yt + (size_t)r * a.Lout + 4 * c4) = val;
                    } else {
#pragma unroll
                        for (int e = 0; e < 4; e++)
                            if (4 * c4 + e < n) yt[(size_t)r * a.Lout + 4 * c4 + e] = pick(val, e);
                    }
                }
            }
        } else if (bulk_ok && ((n * 4) & 15) == 0) {
            if (issuer) send_row(yt + (size_t)(warp * 16 + lane) * a.Lout, ybase + (warp * 16 + lane) * YP * 4, n * 4);
        } else {
            for (int e = tid; e < M * NP; e += 128) {
                const int r = e / NP, cc = e % NP;
                if (cc < n) yt[(size_t)r * a.Lout + cc] = ys[r * YP + cc];
            }
        }
    }
    if (lane < 16) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

template <int CIN, int T, int NP, int S, int D, int P>
int launch_ws(const float *x, const float *w, float *y, int n, int L, int dil, int mode, cudaStream_t st) {
    Args a = make_args(x, w, y, n, L, dil, T, NP, mode);
    if (a.halo > 28) return -2;
    a.wp = (NP + a.halo + 3 + 7) & ~7;
    const size_t smem =
        (size_t)(CIN / 8 * T * 512 + (S + P * D) * (CIN / 4 * a.wp * 4) + 2 * M * (NP + 4)) * sizeof(float) + 16 * S;
    auto k = wa_fwd_ws<CIN, T, NP, S, D, P>;
    if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) return -3;
    int grid = sm_count();
    if (grid > a.tiles) grid = a.tiles;
    k<<<grid, 128 * (P + 2), smem, st>>>(a);
    return cudaGetLastError() == cudaSuccess ? 1 : -5;
}

/* The warp-specialized kernel with its two measured costs cut (run 402h's profile: consumers waited on the producer's
 * full barrier in 38% of the samples; the epilogue's 16 bulk copies per warp issued one lane at a time):
 *   - producer: a lane's items are (channel group = lane & 7, position quad), the stage pitch wp is 1 (mod 8)
 *     positions, so the 16-byte stores of 8 lanes meet 8 distinct bank groups with no per-lane rotation (no
 *     selects); the raw stage is [channel in group][item], so each thread's 16-byte reads of its own copies are
 *     conflict-free; item coordinates computed once;
 *   - consumer: the tile leaves by TMA tensor stores, four boxes of 64 rows x 32 positions in the 128-byte swizzle
 *     (the fragment's 8-byte stores take the minimum two wavefronts), issued by one thread; the TMA clips at L_out.
 * Needs L_out * 4 a multiple of 16 (the map's row stride). */
template <int CIN, int T, int NP, int S, int D, int P>
__global__ void __launch_bounds__(128 * (P + 2), 1) wa_fwd_ws2(const __grid_constant__ CUtensorMap ymap, Args a) {
    static_assert(S % P == 0 && D > 0 && NP % 32 == 0, "");
    constexpr int KB = CIN / 8, KS = KB * T, CG = CIN / 4, IT = (CG * ((NP + 32) / 4) + 127) / 128;
    extern __shared__ __align__(1024) float sm2[];
    float *sm = sm2;
    const int wg = threadIdx.x >> 7, tid = threadIdx.x & 127, lane = tid & 31;
    const int xst = CG * a.wp * 4;                 /* floats per stage */
    const int WQ = (NP + a.halo + 3 + 3) / 4;      /* position quads per channel group */
    const int items = CG * WQ, ipad = (items + 7) & ~7;
    float *ysm = sm;                               /* 2 consumers x 4 boxes x 64 x 32 floats, 1024-aligned */
    float *wsm = ysm + 2 * M * (NP + 4), *xsm = wsm + KS * 512, *raw = xsm + S * xst; /* ys: room for either layout */
    uint64_t *bars = reinterpret_cast<uint64_t *>(raw + P * D * 4 * ipad * 4);
    const uint32_t full0 = saddr(bars), empty0 = full0 + 8 * S;
    const int ntiles = a.tiles > (int)blockIdx.x ? (a.tiles - 1 - blockIdx.x) / gridDim.x + 1 : 0;

    stage_weights<CIN, T>(wsm, a.w, threadIdx.x, 128 * (P + 2));
    if (threadIdx.x == 0) {
        if (saddr(sm) & 1023) __trap(); /* the swizzled boxes need 1024-byte alignment */
        for (int i = 0; i < S; i++) { mb_init(full0 + 8 * i, 128); mb_init(empty0 + 8 * i, 4); }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    if (wg < P) {
        int icg[IT], iw[IT];
#pragma unroll
        for (int u = 0; u < IT; u++) { const int it = tid + u * 128; icg[u] = it & 7; iw[u] = it >> 3; }
        /* items = (cg, quad) with cg = it & 7: CIN = 32 has 8 channel groups */
        static_assert(CG == 8, "the lane mapping takes 8 channel groups");
        auto issue = [&](int j) {
            const int i = wg + j * P;
            if (i < ntiles && !(a.mode & 2)) {
                const int tile = blockIdx.x + i * gridDim.x;
                const int b = tile / a.tiles_per_n, p0 = (tile % a.tiles_per_n) * NP;
                const int ws = (p0 - a.halo) & ~3;
                const float *xb = a.x + (size_t)b * CIN * a.L;
                const uint32_t rs = saddr(raw + (wg * D + j % D) * 4 * ipad * 4);
#pragma unroll
                for (int u = 0; u < IT; u++) {
                    const int it = tid + u * 128;
                    if (it < items) {
                        const int p = ws + 4 * iw[u];
#pragma unroll
                        for (int q = 0; q < 4; q++) {
                            const float *row = xb + (size_t)(4 * icg[u] + q) * a.L;
                            copy_quad(rs + (q * ipad + it) * 16, row, p, a.L, a.x);
                        }
                    }
                }
            }
            asm volatile("cp.async.commit_group;" ::: "memory");
        };
        for (int j = 0; j < D; j++) issue(j);
        for (int j = 0; wg + j * P < ntiles; j++) {
            const int i = wg + j * P, s = i % S;
            asm volatile("cp.async.wait_group %0;" ::"n"(D - 1) : "memory");
            const float *rs = raw + (wg * D + j % D) * 4 * ipad * 4;
            float4 v[IT][4];
#pragma unroll
            for (int u = 0; u < IT; u++) {
                const int it = tid + u * 128;
                if (it < items) {
#pragma unroll
                    for (int q = 0; q < 4; q++) v[u][q] = *reinterpret_cast<const float4 *>(rs + (q * ipad + it) * 4);
                }
            }
            issue(j + D);
            mb_wait(empty0 + 8 * s, ((i / S) & 1) ^ 1);
            float *xs = xsm + s * xst;
#pragma unroll
            for (int u = 0; u < IT; u++) {
                const int it = tid + u * 128;
                if (it < items) {
                    float *dst = xs + ((size_t)icg[u] * a.wp + 4 * iw[u]) * 4;
                    *reinterpret_cast<float4 *>(dst + 0) = make_float4(rnd_tf32(v[u][0].x), rnd_tf32(v[u][1].x), rnd_tf32(v[u][2].x), rnd_tf32(v[u][3].x));
                    *reinterpret_cast<float4 *>(dst + 4) = make_float4(rnd_tf32(v[u][0].y), rnd_tf32(v[u][1].y), rnd_tf32(v[u][2].y), rnd_tf32(v[u][3].y));
                    *reinterpret_cast<float4 *>(dst + 8) = make_float4(rnd_tf32(v[u][0].z), rnd_tf32(v[u][1].z), rnd_tf32(v[u][2].z), rnd_tf32(v[u][3].z));
                    *reinterpret_cast<float4 *>(dst + 12) = make_float4(rnd_tf32(v[u][0].w), rnd_tf32(v[u][1].w), rnd_tf32(v[u][2].w), rnd_tf32(v[u][3].w));
                }
            }
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            mb_arrive(full0 + 8 * s);
        }
        return;
    }

    const int c = wg - P, warp = tid >> 5;
    float *ys = ysm + c * M * (NP + 4);
    const bool rows = a.mode & 8; /* bulk copies of 64 rows (pitch NP + 4), 16 lanes per warp, as wa_fwd_ws */
    const uint32_t wbase = saddr(wsm), ybase = saddr(ys), blbo = (uint32_t)a.wp * 16;
    auto cs_sync = [&]() { asm volatile("bar.sync %0, 128;" ::"r"(1 + c) : "memory"); };
    for (int i = c; i < ntiles; i += 2) {
        float d[NP / 2];
        int b, p0;
        ws_tile<CIN, T, NP, S>(d, a, i, xsm, xst, wbase, blbo, full0, empty0, lane, b, p0);
        if (a.mode & 4) continue;

        if (rows ? lane < 16 : tid == 0) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); /* ys free */
        cs_sync();
        if (rows) {
            stage_tile<NP>(d, ys, NP + 4, warp, lane);
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            cs_sync();
            const int n = min(NP, a.Lout - p0), row = warp * 16 + lane;
            if (lane < 16) send_row(a.y + ((size_t)b * M + row) * a.Lout + p0, ybase + row * (NP + 4) * 4, n * 4);
            continue;
        }
        {
            const int r0 = warp * 16 + (lane >> 2), c0 = 2 * (lane & 3);
#pragma unroll
            for (int j = 0; j < NP / 8; j++) {
                const int col = 8 * j + c0, box = col >> 5, ch = (col & 31) >> 2;
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int r = r0 + 8 * h;
                    float *dst = ys + box * (M * 32) + r * 32 + ((ch ^ (r & 7)) << 2) + (col & 3);
                    *reinterpret_cast<float2 *>(dst) = make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
                }
            }
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        cs_sync();
        if (tid == 0) {
#pragma unroll
            for (int box = 0; box < NP / 32; box++)
                asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(&ymap),
                             "r"(p0 + 32 * box), "r"(0), "r"(b), "r"(ybase + box * M * 32 * 4) : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        }
    }
    if (lane < 16) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

template <int CIN, int T, int NP, int S, int D, int P>
int launch_ws2(const float *x, const float *w, float *y, int n, int L, int dil, int mode, cudaStream_t st) {
    Args a = make_args(x, w, y, n, L, dil, T, NP, mode);
    if (a.halo > 28) return -2;
    if ((a.Lout * 4) % 16) return -6;
    const int WQ = (NP + a.halo + 3 + 3) / 4;
    a.wp = ((4 * WQ + 7) & ~7) + 1; /* 1 (mod 8): the 16-byte stores of the 8 channel groups in distinct banks */
    a.rot = 0;
    const int items = CIN / 4 * WQ, ipad = (items + 7) & ~7;
    const size_t smem = (size_t)(2 * M * (NP + 4) + CIN / 8 * T * 512 + S * (CIN / 4 * a.wp * 4) + P * D * 4 * ipad * 4) *
                            sizeof(float) + 16 * S;
    static PFN_cuTensorMapEncodeTiled_v12000 enc = nullptr;
    if (!enc) {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess)
            return -7;
        enc = (PFN_cuTensorMapEncodeTiled_v12000)p;
    }
    CUtensorMap ymap;
    const cuuint64_t dims[3] = {(cuuint64_t)a.Lout, (cuuint64_t)M, (cuuint64_t)n};
    const cuuint64_t strides[2] = {(cuuint64_t)a.Lout * 4, (cuuint64_t)a.Lout * 4 * M};
    const cuuint32_t box[3] = {32, (cuuint32_t)M, 1}, est[3] = {1, 1, 1};
    if (enc(&ymap, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, y, dims, strides, box, est, CU_TENSOR_MAP_INTERLEAVE_NONE,
            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
        return -8;
    auto k = wa_fwd_ws2<CIN, T, NP, S, D, P>;
    if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) return -3;
    int grid = sm_count();
    if (grid > a.tiles) grid = a.tiles;
    k<<<grid, 128 * (P + 2), smem, st>>>(ymap, a);
    return cudaGetLastError() == cudaSuccess ? 1 : -5;
}

} // namespace

/* Returns the blocks per SM launched (> 0), or < 0: -1 no such instantiation, -2 halo > 28, -3 shared memory,
 * -4 no occupancy, -5 launch error. variant: NP (64 / 128 / 256) x 10 + blocks-per-SM bound of the build (1-4), or
 * 100000 x PW + 90000 + 1000 x NW + NP for the staged kernel of NW warpgroups per block, PW of them per tile, or
 * 700000 + 100000 x P + 10000 x D + 1000 x S + NP for the warp-specialized kernel with P producer warpgroups and S
 * stages (D > 0: x by cp.async, D raw stages per producer). Mode bit 3 (8): its y by 16-byte stores, not bulk copies.
 * 500000 + 50000 x P + 10000 x D + 1000 x S + NP: the second warp-specialized kernel (-6: L_out x 4 not a multiple of 16). */
extern "C" int wa_run(const float *x, const float *w, float *y, int n, int cin, int cout, int taps, int L, int dil,
                      int variant, int ctas, int swap, int rot, int mode, void *stream) {
    cudaStream_t st = (cudaStream_t)stream;
    if (cout != M) return -1;
#define WA_CASE(CIN, T, NP, MINB)                                                                          \
    if (cin == CIN && taps == T && variant == NP * 10 + MINB)                                              \
        return launch<CIN, T, NP, MINB>(x, w, y, n, L, dil, ctas, swap, rot, mode, st);
    WA_CASE(32, 5, 128, 3)
    WA_CASE(32, 5, 128, 4)
    WA_CASE(32, 5, 64, 4)
    WA_CASE(32, 5, 256, 2)
    WA_CASE(32, 3, 128, 3)
    WA_CASE(16, 5, 128, 3)
#undef WA_CASE
#define WA_ST(CIN, T, NP, NW, PW)                                                                          \
    if (cin == CIN && taps == T && variant == (PW > 1) * 100000 * PW + 90000 + NW * 1000 + NP)                     \
        return launch_st<CIN, T, NP, NW, PW>(x, w, y, n, L, dil, mode, st);
    WA_ST(32, 5, 128, 2, 1)
    WA_ST(32, 5, 128, 3, 1)
    WA_ST(32, 5, 64, 3, 1)
    WA_ST(32, 3, 128, 3, 1)
    WA_ST(16, 5, 128, 3, 1)
    WA_ST(32, 5, 128, 2, 2)
    WA_ST(32, 5, 64, 4, 2)
    WA_ST(32, 5, 64, 2, 2)
    WA_ST(32, 5, 64, 4, 4)
#undef WA_ST
#define WA_WS(CIN, T, NP, S, D, P)                                                                         \
    if (cin == CIN && taps == T && variant == 700000 + P * 100000 + D * 10000 + S * 1000 + NP)             \
        return launch_ws<CIN, T, NP, S, D, P>(x, w, y, n, L, dil, mode, st);
    WA_WS(32, 5, 128, 3, 0, 1)
    WA_WS(32, 5, 128, 4, 0, 1)
    WA_WS(32, 5, 128, 2, 4, 1)
    WA_WS(32, 5, 128, 2, 3, 1)
    WA_WS(32, 5, 128, 3, 3, 1)
    WA_WS(32, 5, 64, 3, 6, 1)
    WA_WS(32, 3, 128, 2, 4, 1)
    WA_WS(16, 5, 128, 2, 4, 1)
    WA_WS(32, 5, 128, 2, 2, 2)
    WA_WS(32, 5, 64, 4, 3, 2)
    WA_WS(32, 3, 128, 2, 2, 2)
#undef WA_WS
#define WA_WS2(CIN, T, NP, S, D, P)                                                                        \
    if (cin == CIN && taps == T && variant == 500000 + P * 50000 + D * 10000 + S * 1000 + NP)              \
        return launch_ws2<CIN, T, NP, S, D, P>(x, w, y, n, L, dil, mode, st);
    WA_WS2(32, 5, 128, 2, 2, 2)
    WA_WS2(32, 5, 128, 2, 4, 1)
    WA_WS2(32, 5, 128, 4, 1, 2)
    WA_WS2(32, 3, 128, 2, 2, 2)
#undef WA_WS2
    return -1;
}
