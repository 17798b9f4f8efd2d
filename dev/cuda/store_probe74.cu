/* What KernelBench 74's forward traffic can reach with the register-A kernel's structure, without its math
 * (session 24). KernelBench 74 TF32 runs at 0.664 ms (81% of the device-to-device copy); 3.5x needs 0.60 (89%).
 * Session 20's Triton probe wrote the same bytes at 96% from plain vector stores of 16 KB row pieces. This probe
 * repeats the shipped kernel's data movement and changes one thing at a time:
 *   - a persistent grid of one block per SM, 384 threads: warp 8 lane 0 produces, warps 0-7 consume;
 *   - a tile = all 64 rows x BQ positions of one sample, tiles b, b + grid, ... (the kernel's order);
 *   - the producer loads the tile's x window (32 rows x BQ + 12 columns) with one bulk copy per row into a stage
 *     of a ring (split > 1: the rows in `split` stages, as half-channel stages would be);
 *   - the consumers wait for the stage, spin `spin` cycles (the MMAs' stand-in: ~1.4 us of TF32 MMAs per
 *     256-position tile at KernelBench 74), release it, wait until their previous bulk copies out of the staged
 *     buffer they are about to rewrite were read, write 64 values each in the kernel's pattern, and 64 threads send
 *     one row each (bulk copy), or the 8 warps send the rows with 16-byte vector stores;
 *   - nbuf = 2: two staged buffers taken in turn (the copies of tile t drain during tile t + 1).
 * The 40 KB of resident weights are reserved (not used) so that the layouts are the ones that fit the kernel.
 * Set 1 (run 256): the layouts above; set 2 (run 257): read-ahead depth, L2 eviction hints, tile order; set 3 (run
 * 259): the same traffic from registers, no shared memory. What they found, and that the best layout (a ring of one
 * tile in halves, 5% faster here) lost in the kernel (run 258): docs/design.md, Session 24.
 *
 *   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/sp74 dev/cuda/store_probe74.cu && /tmp/sp74 [1|2|3] */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>

#define CK(x)                                                                                          \
    do {                                                                                               \
        cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                 \
            exit(1);                                                                                   \
        }                                                                                              \
    } while (0)

constexpr int N = 32, CIN = 32, C = 64, LIN = 131072, LOUT = 131084, HAL = 12, NTH = 384;
constexpr int WRES = 40960; /* KernelBench 74's resident TF32 weights: 5 taps x 64 rows x 128 bytes */

struct P {
    float *y;
    const float *x;
    int bq, tiles_per_n, tiles, xp, sp; /* positions per tile, x pitch (floats), staged pitch (floats) */
    int stages, split, nbuf, spin, vec, xbytes_stage, stg_off, bar_off;
    int hx, hy;  /* L2 hints on the x loads / y stores: 0 none, 1 evict_first, 2 evict_last */
    int order;   /* 0: tiles b, b + grid, ... (the kernel's); 1: each block a contiguous run of tiles */
};

__device__ __forceinline__ uint64_t l2_policy(int h) {
    uint64_t p = 0;
    if (h == 1) asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    if (h == 2) asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    return p;
}

__device__ __forceinline__ uint32_t su32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void bar_init(uint32_t b, int n) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(n) : "memory");
}
__device__ __forceinline__ void bar_expect(uint32_t b, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_arrive(uint32_t b) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b) : "memory");
}
__device__ __forceinline__ void bar_wait(uint32_t b, uint32_t par) {
    asm volatile("{\n.reg .pred d;\nW_%=:\nmbarrier.try_wait.parity.shared::cta.b64 d, [%0], %1, %2;\n@!d bra W_%=;\n}\n" ::"r"(b),
                 "r"(par), "n"(1000000)
                 : "memory");
}
__device__ __forceinline__ void nsync(int id, int n) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory"); }

__global__ void __launch_bounds__(NTH, 1) probe(const P a) {
    extern __shared__ __align__(1024) unsigned char smraw[];
    unsigned char *sm = (unsigned char *)(((uintptr_t)smraw + 1023) & ~(uintptr_t)1023);
    const uint32_t full0 = su32(sm + a.bar_off), empty0 = full0 + 8 * a.stages;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int rows_per_stage = CIN / a.split;
    if (tid == 0) {
        for (int s = 0; s < a.stages; ++s) bar_init(full0 + 8 * s, 1), bar_init(empty0 + 8 * s, 8);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (warp >= 8) {
        if (tid != 256) return;
        int it = 0;
        const uint64_t pol = l2_policy(a.hx);
        const int per = (a.tiles + gridDim.x - 1) / gridDim.x;
        for (int k = 0;; ++k) {
            const int tl = a.order ? blockIdx.x * per + k : blockIdx.x + k * gridDim.x;
            if (tl >= a.tiles || (a.order && k >= per)) break;
            const int n = tl / a.tiles_per_n, q0 = (tl - n * a.tiles_per_n) * a.bq;
            const int lo = max(q0 - HAL, 0), hi = min(q0 + a.bq, LIN), len = hi > lo ? hi - lo : 0;
            for (int h = 0; h < a.split; ++h, ++it) {
                const int s = it % a.stages;
                if (it >= a.stages) bar_wait(empty0 + 8 * s, ((it / a.stages) + 1) & 1);
                const uint32_t st = su32(sm + s * a.xbytes_stage), bar = full0 + 8 * s;
                bar_expect(bar, (uint32_t)(rows_per_stage * len * 4));
                for (int r = 0; r < rows_per_stage && len > 0; ++r) {
                    const float *src = a.x + ((int64_t)n * CIN + h * rows_per_stage + r) * LIN + lo;
                    const uint32_t dst = st + (r * a.xp + (lo - (q0 - HAL))) * 4;
                    if (a.hx)
                        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(dst),
                                     "l"(src), "r"(len * 4), "r"(bar), "l"(pol)
                                     : "memory");
                    else
                        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                                     "l"(src), "r"(len * 4), "r"(bar)
                                     : "memory");
                }
            }
        }
        return;
    }
    const int wg = warp >> 2, wq = warp & 3, g = lane >> 2, t = lane & 3;
    float acc = 0.f;
    int it = 0;
    const uint64_t ypol = l2_policy(a.hy);
    const int per = (a.tiles + gridDim.x - 1) / gridDim.x;
    for (int k = 0;; ++k) {
        const int tl = a.order ? blockIdx.x * per + k : blockIdx.x + k * gridDim.x;
        if (tl >= a.tiles || (a.order && k >= per)) break;
        const int n = tl / a.tiles_per_n, q0 = (tl - n * a.tiles_per_n) * a.bq;
        for (int h = 0; h < a.split; ++h, ++it) {
            const int s = it % a.stages;
            bar_wait(full0 + 8 * s, (it / a.stages) & 1);
            const float *xs = reinterpret_cast<const float *>(sm + s * a.xbytes_stage);
            acc += xs[(t + 4 * (wq & 1)) * a.xp + HAL + 16 * wq + g + 64 * wg];
            const long long t0 = clock64();
            while (clock64() - t0 < a.spin / a.split) {
            }
            __syncwarp();
            if (lane == 0) bar_arrive(empty0 + 8 * s);
        }
        /* the staged buffer of this tile: wait until this thread's copies out of it were read */
        float *stg = reinterpret_cast<float *>(sm + a.stg_off) + (k % a.nbuf) * C * a.sp;
        if (a.nbuf == 2)
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        else
            asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        nsync(3, 256);
        /* the kernel's writes: rows 8i + 2t + u, positions wgp + 16 wq + g + 64 mq + 8 h (each warpgroup bq/2 of them) */
        const int half = a.bq / 2;
        for (int i = 0; i < C / 8; ++i)
            for (int u = 0; u < 2; ++u) {
                float *row = stg + (i * 8 + 2 * t + u) * a.sp + wg * half + 16 * wq + g;
                for (int mq = 0; mq < half / 64; ++mq)
                    for (int hh = 0; hh < 2; ++hh) row[64 * mq + 8 * hh] = acc + i + mq + hh;
            }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        nsync(3, 256);
        const int span = min(a.bq, LOUT - q0);
        if (a.vec) {
            for (int r = warp; r < C; r += 8) {
                float *dst = a.y + ((int64_t)n * C + r) * LOUT + q0;
                const float *src = stg + r * a.sp;
                for (int v = lane; v < span / 4; v += 32) *(float4 *)(dst + 4 * v) = *(const float4 *)(src + 4 * v);
            }
        } else if (tid < C) {
            float *dst = a.y + ((int64_t)n * C + tid) * LOUT + q0;
            if (a.hy)
                asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;" ::"l"(dst),
                             "r"(su32(stg + tid * a.sp)), "r"(span / 4 * 16), "l"(ypol)
                             : "memory");
            else
                asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(su32(stg + tid * a.sp)),
                             "r"(span / 4 * 16)
                             : "memory");
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        }
    }
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    if (acc == 12345.f) a.y[0] = acc;
}


/* Set 3: no shared memory, no pipeline: each block reads its tile's 32 x rows (16-byte loads) and then writes its
 * 64 y rows from registers (16-byte stores, a warp's 32 lanes along a row), as session 20's Triton probe did with
 * 16 KB row pieces. Persistent (a grid of `per_sm` blocks per SM, tiles b, b + grid, ...) or one block per tile. */
template <int BQ>
__global__ void __launch_bounds__(256) regs_probe(const float *__restrict__ x, float *__restrict__ y, int tiles_per_n,
                                                  int tiles, int persistent) {
    for (int tl = blockIdx.x; tl < tiles; tl += persistent ? gridDim.x : tiles) {
        const int n = tl / tiles_per_n, q0 = (tl - n * tiles_per_n) * BQ;
        float acc = 0.f;
        for (int v = threadIdx.x; v < CIN * BQ / 4; v += 256) {
            const int row = v / (BQ / 4), pos = q0 + 4 * (v - row * (BQ / 4));
            if (pos < LIN) {
                const float4 f = __ldg((const float4 *)(x + ((int64_t)n * CIN + row) * LIN + pos));
                acc += f.x + f.y + f.z + f.w;
            }
        }
        for (int v = threadIdx.x; v < C * BQ / 4; v += 256) {
            const int row = v / (BQ / 4), pos = q0 + 4 * (v - row * (BQ / 4));
            if (pos < LOUT) *(float4 *)(y + ((int64_t)n * C + row) * LOUT + pos) = make_float4(acc, acc + 1, acc + 2, acc + 3);
        }
    }
}

/* Median ms of 40 timed calls of launch() after 3 untimed ones (CUDA events around each). */
template <class Launch> static double median_ms(Launch launch) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int i = 0; i < 3; ++i) launch();
    CK(cudaGetLastError());
    std::vector<float> ts;
    for (int i = 0; i < 40; ++i) {
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        ts.push_back(ms);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    std::sort(ts.begin(), ts.end());
    return ts[ts.size() / 2];
}

template <int BQ> static double run_regs(const char *name, float *y, const float *x, int per_sm) {
    const int tiles_per_n = (LOUT + BQ - 1) / BQ, tiles = N * tiles_per_n;
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int grid = per_sm ? std::min(tiles, sms * per_sm) : tiles;
    const double ms = median_ms([&] { regs_probe<BQ><<<grid, 256>>>(x, y, tiles_per_n, tiles, per_sm != 0); });
    const double bytes = (double)N * C * LOUT * 4 + (double)N * CIN * LIN * 4;
    printf("%-52s bq %4d per SM %d  %7.4f ms  %5.2f TB/s\n", name, BQ, per_sm, ms, bytes / ms / 1e9);
    fflush(stdout);
    return ms;
}

/* One variant; returns its median ms. */
static double run(const char *name, float *y, const float *x, int bq, int stages, int split, int nbuf, int spin, int vec,
                  bool weights = true, int xpitch = 0, int hx = 0, int hy = 0, int order = 0) {
    P a;
    a.hx = hx, a.hy = hy, a.order = order;
    a.y = y, a.x = x, a.bq = bq;
    a.tiles_per_n = (LOUT + bq - 1) / bq, a.tiles = N * a.tiles_per_n;
    a.xp = xpitch ? xpitch : bq / 128 * 168; /* the kernel's stage: 128-position boxes of 168 columns (8 mod 32) */
    a.sp = bq + 4;
    a.stages = stages, a.split = split, a.nbuf = nbuf, a.spin = spin, a.vec = vec;
    a.xbytes_stage = (CIN / split * a.xp * 4 + 1023) / 1024 * 1024;
    a.stg_off = stages * a.xbytes_stage + (weights ? WRES : 0);
    a.bar_off = a.stg_off + nbuf * C * a.sp * 4;
    const int smem = a.bar_off + 256 + 1024;
    if (smem > 232448) {
        printf("%-52s does not fit (%d bytes)\n", name, smem);
        return 0;
    }
    CK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int grid = std::min(a.tiles, sms);
    const double ms = median_ms([&] { probe<<<grid, NTH, smem>>>(a); });
    const double bytes = (double)N * C * LOUT * 4 + (double)N * CIN * LIN * 4;
    printf("%-52s bq %3d st %d/%d buf %d spin %5d h %d%d o %d  %7.4f ms  %5.2f TB/s\n", name, bq, stages, split, nbuf, spin,
           hx, hy, order, ms, bytes / ms / 1e9);
    fflush(stdout);
    return ms;
}

int main(int argc, char **argv) {
    const int set = argc > 1 ? atoi(argv[1]) : 1;
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    printf("%s, %d SMs\n", pr.name, pr.multiProcessorCount);
    const size_t ybytes = (size_t)N * C * LOUT * 4, xbytes = (size_t)N * CIN * LIN * 4;
    float *y, *x, *cp;
    CK(cudaMalloc(&y, ybytes));
    CK(cudaMalloc(&x, xbytes));
    CK(cudaMalloc(&cp, ybytes + xbytes));
    CK(cudaMemset(x, 0x3c, xbytes));
    CK(cudaMemset(y, 0, ybytes));
    {   /* the device-to-device copy of the same number of bytes (read + write counted) */
        const size_t half = (ybytes + xbytes) / 2 / 16 * 16;
        const double t = median_ms([&] { CK(cudaMemcpyAsync(cp, cp + half / 4, half, cudaMemcpyDeviceToDevice)); });
        printf("%-52s %7.4f ms  %5.2f TB/s (0.60 ms = 3.5x needs %.0f%%)\n", "device-to-device copy (same bytes)", t,
               2.0 * half / t / 1e9, 100.0 * t / 0.60);
    }
    const int S = 2600; /* ~1.45 us at 1.755 GHz: the MMAs of one 256-position tile */
    if (set == 3) {
        run_regs<256>("registers: a block per tile", y, x, 0);
        run_regs<256>("registers: persistent, 1 block per SM", y, x, 1);
        run_regs<256>("registers: persistent, 2 blocks per SM", y, x, 2);
        run_regs<256>("registers: persistent, 4 blocks per SM", y, x, 4);
        run_regs<512>("registers: a block per tile", y, x, 0);
        run_regs<1024>("registers: a block per tile", y, x, 0);
        run_regs<1024>("registers: persistent, 4 blocks per SM", y, x, 4);
        run_regs<128>("registers: a block per tile", y, x, 0);
        run("shipped layout (2 stages, 1 buffer, bulk)", y, x, 256, 2, 1, 1, S, 0);
        run_regs<256>("registers: a block per tile (drift check)", y, x, 0);
        return 0;
    }
    if (set == 2) {
        /* run 257: read-ahead depth, L2 hints, tile order, around the best of run 256 (2 buffers, 2 half-stages) */
        /*   name                                                  bq stages split nbuf spin vec weights xpitch hx hy order */
        run("2 buffers, 2 half-stages (run 256's best)", y, x, 256, 2, 2, 2, S, 0);
        run("  x evict_first", y, x, 256, 2, 2, 2, S, 0, true, 0, 1, 0);
        run("  y evict_first", y, x, 256, 2, 2, 2, S, 0, true, 0, 0, 1);
        run("  x evict_first, y evict_first", y, x, 256, 2, 2, 2, S, 0, true, 0, 1, 1);
        run("  x evict_first, y evict_last", y, x, 256, 2, 2, 2, S, 0, true, 0, 1, 2);
        run("  contiguous tiles per block", y, x, 256, 2, 2, 2, S, 0, true, 0, 0, 0, 1);
        run("  4 quarter-stages", y, x, 256, 4, 4, 2, S, 0);
        run("  3 quarter-stages", y, x, 256, 3, 4, 2, S, 0);
        run("  spin 1800", y, x, 256, 2, 2, 2, 1800, 0);
        run("  spin 3200", y, x, 256, 2, 2, 2, 3200, 0);
        run("  no spin", y, x, 256, 2, 2, 2, 0, 0);
        run("no weights: 3 half-stages, 2 buffers", y, x, 256, 3, 2, 2, S, 0, false);
        run("no weights: 4 half-stages, 2 buffers", y, x, 256, 4, 2, 2, S, 0, false);
        run("no weights: 2 quarter-stages, 2 buffers", y, x, 256, 2, 4, 2, S, 0, false);
        run("shipped layout (2 stages, 1 buffer)", y, x, 256, 2, 1, 1, S, 0);
        run("  x evict_first", y, x, 256, 2, 1, 1, S, 0, true, 0, 1, 0);
        run("  x evict_first, y evict_first", y, x, 256, 2, 1, 1, S, 0, true, 0, 1, 1);
        run("  2 half-stages, 1 buffer", y, x, 256, 2, 2, 1, S, 0);
        run("  4 quarter-stages, 1 buffer", y, x, 256, 4, 4, 1, S, 0);
        run("bq 512, 2 quarter-stages, 1 buffer, x evict_first", y, x, 512, 2, 4, 1, 2 * S, 0, true, 0, 1, 0);
        run("2 buffers, 2 half-stages (drift check)", y, x, 256, 2, 2, 2, S, 0);
        return 0;
    }
    /*   name                                                      bq stages split nbuf spin vec */
    run("shipped layout (2 stages, 1 staged buffer)", y, x, 256, 2, 1, 1, S, 0);
    run("  no spin (data movement only)", y, x, 256, 2, 1, 1, 0, 0);
    run("  boxes of 152 columns (24 mod 32): 3 stages", y, x, 256, 3, 1, 1, S, 0, true, 304);
    run("two staged buffers, 1 stage", y, x, 256, 1, 1, 2, S, 0);
    run("two staged buffers, 2 half-stages (boxes or channels)", y, x, 256, 2, 2, 2, S, 0);
    run("two staged buffers, 2 half-stages, boxes of 152", y, x, 256, 2, 2, 2, S, 0, true, 304);
    run("two staged buffers, 3 half-stages, boxes of 152", y, x, 256, 3, 2, 2, S, 0, true, 304);
    run("two staged buffers, 2 stages, no weights (ideal room)", y, x, 256, 2, 1, 2, S, 0, false);
    run("  no spin", y, x, 256, 2, 1, 2, 0, 0, false);
    run("shipped layout, vector stores by 8 warps", y, x, 256, 2, 1, 1, S, 1);
    run("two staged buffers, 2 half-stages, vector stores", y, x, 256, 2, 2, 2, S, 1);
    run("bq 512 (2 KB pieces), 2 half-stages, 1 buffer", y, x, 512, 2, 2, 1, 2 * S, 0);
    run("bq 512, 2 quarter-stages, 1 buffer", y, x, 512, 2, 4, 1, 2 * S, 0);
    run("bq 128 (512 B pieces), 2 buffers, 2 stages", y, x, 128, 2, 1, 2, S / 2, 0);
    run("bq 128, 2 buffers, 4 stages", y, x, 128, 4, 1, 2, S / 2, 0);
    run("spin 4000, two buffers, 2 half-stages", y, x, 256, 2, 2, 2, 4000, 0);
    run("spin 4000, shipped layout", y, x, 256, 2, 1, 1, 4000, 0);
    run("shipped layout again (drift check)", y, x, 256, 2, 1, 1, S, 0);
    return 0;
}
