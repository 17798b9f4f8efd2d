/* Can a TMA tile box start at any element, or only at 16-byte multiples? (session 25)
 *
 * The register-A forward's 16-bit A fragments load by ldmatrix on taps whose shift keeps the input box's rows
 * 16-byte aligned (run 274: 1-5% on the strided vocoder layers); the other taps would need their own copy of the box,
 * loaded by TMA from a start one to seven elements off a 16-byte boundary. Session 18 (run 177) saw an illegal
 * instruction from a box that started off a 16-byte column in its grouped-row map. This loads a 16-bit box of 64 rows x
 * 136 columns (the kernel's layout, no swizzle) from x-coordinates 0..8 and -3, and checks every element.
 *
 *   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o /tmp/tsp dev/cuda/tma_start_probe.cu && /tmp/tsp */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <vector>

constexpr int L = 4096, C = 64, W = 136;

__global__ void load_box(const __grid_constant__ CUtensorMap map, int x0, uint16_t *out) {
    __shared__ alignas(128) uint16_t box[C * W];
    __shared__ alignas(8) uint64_t bar;
    const uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar), s = (uint32_t)__cvta_generic_to_shared(box);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("fence.mbarrier_init.release.cluster;");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(C * W * 2));
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                     ::"r"(s), "l"(&map), "r"(x0), "r"(0), "r"(0), "r"(b) : "memory");
        asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n@!p bra W;\n}" ::"r"(b));
    }
    __syncthreads();
    for (int i = threadIdx.x; i < C * W; i += blockDim.x) out[i] = box[i];
}

int main() {
    std::vector<uint16_t> h((size_t)C * L);
    for (size_t i = 0; i < h.size(); ++i) h[i] = (uint16_t)(i * 2654435761u >> 16);
    uint16_t *x, *o;
    cudaMalloc(&x, h.size() * 2);
    cudaMalloc(&o, C * W * 2);
    cudaMemcpy(x, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
    void *fp = nullptr; /* the driver's encoder through the runtime (no -lcuda), as the library gets it */
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fp, 12000, cudaEnableDefault, &q) != cudaSuccess || !fp) {
        printf("no cuTensorMapEncodeTiled\n");
        return 1;
    }
    const auto encode = (PFN_cuTensorMapEncodeTiled_v12000)fp;
    CUtensorMap map;
    const cuuint64_t dims[3] = {L, C, 1}, strides[2] = {L * 2, (cuuint64_t)L * C * 2};
    const cuuint32_t box[3] = {W, C, 1}, est[3] = {1, 1, 1};
    if (encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, x, dims, strides, box, est, CU_TENSOR_MAP_INTERLEAVE_NONE,
                               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) !=
        CUDA_SUCCESS) {
        printf("encode failed\n");
        return 1;
    }
    const int starts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -3};
    std::vector<uint16_t> got(C * W);
    for (int x0 : starts) {
        load_box<<<1, 256>>>(map, x0, o);
        const cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("start %2d: %s\n", x0, cudaGetErrorString(e));
            return 1; /* the context is gone */
        }
        cudaMemcpy(got.data(), o, C * W * 2, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int r = 0; r < C; ++r)
            for (int c = 0; c < W; ++c) {
                const int col = x0 + c;
                const uint16_t want = col >= 0 && col < L ? h[(size_t)r * L + col] : 0;
                bad += got[r * W + c] != want;
            }
        printf("start %2d: %s (%d of %d elements wrong)\n", x0, bad ? "WRONG" : "ok", bad, C * W);
    }
    return 0;
}
