/* What rate can L2 feed the SMs' shared memory by bulk copies? (session 34)
 *
 * Run 362's profiles and the byte counts say KernelBench 64 TF32 (weights restaged per 128-position tile: 326 KB of
 * L2 traffic per tile, 10.7 GB per call) and the TF32 vocoder layers (64 KB of weights + 17 KB of input per chunk stage)
 * move 5.4-6.0 TB/s through L2 at their current speeds. If that is L2's ceiling, those rows need fewer bytes per
 * output, not a better pipeline. One block per SM, one thread keeping `stages` bulk copies (cp.async.bulk, one stage
 * each) in flight into a ring of shared memory, nothing computed:
 *   distinct: each block walks its own part of a 24 MB buffer (L2-resident after the first pass);
 *   shared:   every block walks the same `span` bytes (the packed weights every block reads: 1 MB for a vocoder
 *             layer's row tile, 192 KB for KernelBench 64);
 *   dram:     each block walks its own part of a 4 GB buffer (the device-to-device copy's read side, for scale).
 * Prints GB/s (bytes landed in shared memory / kernel time, median of 5) per pattern, stage size and stage count.
 *
 *   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/l2p dev/cuda/l2_ceiling_probe.cu && /tmp/l2p */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <algorithm>
#include <vector>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

__global__ void __launch_bounds__(32, 1) bulk_read(const char *src, int64_t span, int64_t per_block, int stage,
                                                   int stages, int iters, unsigned *sink) {
    extern __shared__ __align__(1024) char smem[];
    __shared__ __align__(8) uint64_t full[8];
    if (threadIdx.x != 0) return;
    const uint32_t s0 = (uint32_t)__cvta_generic_to_shared(smem);
    for (int i = 0; i < stages; ++i)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((uint32_t)__cvta_generic_to_shared(&full[i])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    const int64_t base = per_block * blockIdx.x; /* 0 for the shared pattern */
    int64_t off = 0;
    for (int i = 0; i < iters; ++i) {
        const int slot = i % stages;
        const uint32_t b = (uint32_t)__cvta_generic_to_shared(&full[slot]);
        if (i >= stages) { /* the slot's previous copy landed: its phase (i / stages - 1) & 1 completed */
            const uint32_t par = (uint32_t)((i / stages - 1) & 1);
            asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W;\n}" ::"r"(b),
                         "r"(par) : "memory");
        }
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(stage) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                         s0 + slot * stage),
                     "l"(src + base + off), "r"(stage), "r"(b) : "memory");
        off += stage;
        if (off + stage > span) off = 0;
    }
    for (int i = iters > stages ? iters - stages : 0; i < iters; ++i) { /* drain */
        const int slot = i % stages;
        const uint32_t b = (uint32_t)__cvta_generic_to_shared(&full[slot]);
        const uint32_t par = (uint32_t)((i / stages) & 1);
        asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra W;\n}" ::"r"(b),
                     "r"(par) : "memory");
    }
    sink[blockIdx.x] = *reinterpret_cast<volatile unsigned *>(smem); /* keep the copies observable */
}

int main() {
    int dev = 0, sms = 0;
    CK(cudaSetDevice(dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    printf("%s, %d SMs, L2 %d MB\n", prop.name, sms, prop.l2CacheSize >> 20);
    const int64_t big = (int64_t)4 << 30, l2buf = (int64_t)24 << 20;
    char *src = nullptr;
    unsigned *sink = nullptr;
    CK(cudaMalloc(&src, big));
    CK(cudaMemset(src, 1, big));
    CK(cudaMalloc(&sink, sms * sizeof(unsigned)));
    CK(cudaFuncSetAttribute(bulk_read, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    struct Pat { const char *name; int64_t span, per_block; };
    const Pat pats[] = {{"distinct", l2buf / sms / 1024 * 1024, l2buf / sms / 1024 * 1024},
                        {"shared_1MB", (int64_t)1 << 20, 0},
                        {"shared_192KB", 192 << 10, 0},
                        {"dram", big / sms / 1024 * 1024, big / sms / 1024 * 1024}};
    const int stage_kb[] = {16, 32, 64};
    const int nstages[] = {2, 3, 4, 6};
    printf("%-14s %8s %7s %10s\n", "pattern", "stage_KB", "stages", "GB/s");
    for (const Pat &p : pats)
        for (int kb : stage_kb)
            for (int ns : nstages) {
                const int stage = kb << 10;
                if (stage * ns > 200 * 1024 || stage > p.span) continue;
                const int iters = (int)std::min<int64_t>(4000, (int64_t)(3000) * (64 << 10) / stage);
                std::vector<float> ms;
                for (int r = 0; r < 6; ++r) {
                    CK(cudaEventRecord(e0));
                    bulk_read<<<sms, 32, stage * ns>>>(src, p.span, p.per_block, stage, ns, iters, sink);
                    CK(cudaEventRecord(e1));
                    CK(cudaEventSynchronize(e1));
                    CK(cudaGetLastError());
                    float t = 0;
                    CK(cudaEventElapsedTime(&t, e0, e1));
                    if (r) ms.push_back(t); /* the first run warms L2 */
                }
                std::sort(ms.begin(), ms.end());
                const double bytes = (double)sms * iters * stage;
                printf("%-14s %8d %7d %10.1f\n", p.name, kb, ns, bytes / (ms[ms.size() / 2] * 1e-3) / 1e9);
            }
    /* device-to-device copy for scale (read + write counted) */
    {
        std::vector<float> ms;
        for (int r = 0; r < 6; ++r) {
            CK(cudaEventRecord(e0));
            CK(cudaMemcpyAsync(src + big / 2, src, big / 2, cudaMemcpyDeviceToDevice));
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float t = 0;
            CK(cudaEventElapsedTime(&t, e0, e1));
            if (r) ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        printf("%-14s %8s %7s %10.1f\n", "d2d_copy", "-", "-", 2.0 * (big / 2) / (ms[ms.size() / 2] * 1e-3) / 1e9);
    }
    printf("probe ok\n");
    return 0;
}
