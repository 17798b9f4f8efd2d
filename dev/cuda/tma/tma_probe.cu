/* TMA probe (dev): one 3D tiled box of a [d2][d1][d0] uint16 tensor into shared memory and back out,
 * checked against the tensor. Variant (argv[1]) picks dims, box and swizzle; argv[2] = "vmm" uses a
 * cuMemCreate/cuMemMap buffer (as PyTorch's expandable segments do) instead of cudaMalloc.
 *   nvcc -O2 -gencode arch=compute_90a,code=sm_90a dev/cuda/tma/tma_probe.cu -lcuda -o tma_probe */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

__global__ void probe(const __grid_constant__ CUtensorMap map, int c0, int c1, int c2, int bytes, unsigned short *out) {
    extern __shared__ __align__(1024) unsigned char sm[];
    __shared__ __align__(8) unsigned long long bar;
    const unsigned b = (unsigned)__cvta_generic_to_shared(&bar), d = (unsigned)__cvta_generic_to_shared(sm);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
        asm volatile("fence.mbarrier_init.release.cluster;");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes));
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
                     ::"r"(d), "l"(&map), "r"(b), "r"(c0), "r"(c1), "r"(c2) : "memory");
        asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n@!p bra W;\n}" ::"r"(b) : "memory");
    }
    __syncthreads();
    for (int i = threadIdx.x; i < bytes / 2; i += blockDim.x) out[i] = ((unsigned short *)sm)[i];
}

int main(int argc, char **argv) {
    int v = argc > 1 ? atoi(argv[1]) : 0;
    bool vmm = argc > 2 && !strcmp(argv[2], "vmm");
    /* variant: d0 d1 d2 box0 box1 swizzle(0 none, 3 = 128B) c0 c1 c2 */
    int P[][9] = {{2048, 128, 2, 64, 64, 3, 64, 0, 1},    {2048, 128, 2, 64, 64, 0, 64, 0, 1},
                  {128, 128, 3, 64, 128, 3, 0, 0, 1},     {2048, 128, 2, 64, 128, 3, 64, 0, 1},
                  {2048, 128, 2, 64, 64, 3, -2, 0, 0},    {256, 128, 2, 64, 64, 3, 64, 64, 1},
                  {2048, 128, 2, 64, 64, 3, -8, 0, 1},    {2048, 128, 2, 64, 64, 3, 8, 0, 1},
                  {2048, 128, 2, 64, 64, 3, 1, 0, 1},     {2048, 128, 2, 64, 64, 0, 1, 0, 1},
                  {2048, 128, 2, 64, 64, 3, -64, 0, 1},   {2048, 128, 2, 64, 64, 3, 2040, 0, 1}};
    int *p = P[v];
    cuInit(0);
    size_t n = (size_t)p[0] * p[1] * p[2];
    unsigned short *buf = nullptr;
    if (vmm) {
        CUmemAllocationProp prop = {};
        prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop.location.id = 0;
        size_t gran = 0;
        cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
        size_t sz = ((n * 2 + gran - 1) / gran) * gran;
        CUmemGenericAllocationHandle h;
        CUdeviceptr ptr;
        cudaFree(0);
        if (cuMemCreate(&h, sz, &prop, 0) || cuMemAddressReserve(&ptr, sz, 0, 0, 0) || cuMemMap(ptr, sz, 0, h, 0)) { printf("vmm fail\n"); return 1; }
        CUmemAccessDesc acc = {};
        acc.location = prop.location;
        acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        cuMemSetAccess(ptr, sz, &acc, 1);
        buf = (unsigned short *)ptr;
    } else {
        cudaMalloc(&buf, n * 2);
    }
    std::vector<unsigned short> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = (unsigned short)(i * 2654435761u >> 7);
    cudaMemcpy(buf, h.data(), n * 2, cudaMemcpyHostToDevice);
    CUtensorMap map;
    cuuint64_t dims[3] = {(cuuint64_t)p[0], (cuuint64_t)p[1], (cuuint64_t)p[2]};
    cuuint64_t strides[2] = {(cuuint64_t)p[0] * 2, (cuuint64_t)p[0] * p[1] * 2};
    cuuint32_t box[3] = {(cuuint32_t)p[3], (cuuint32_t)p[4], 1}, es[3] = {1, 1, 1};
    CUresult r = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, buf, dims, strides, box, es,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, p[5] == 3 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    int bytes = p[3] * p[4] * 2;
    unsigned short *out;
    cudaMalloc(&out, bytes);
    cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes + 1024);
    probe<<<1, 128, bytes + 1024>>>(map, p[6], p[7], p[8], bytes, out);
    cudaError_t e = cudaDeviceSynchronize();
    std::vector<unsigned short> o(bytes / 2);
    cudaMemcpy(o.data(), out, bytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int y = 0; y < p[4]; ++y)
        for (int x = 0; x < p[3]; ++x) {
            long gx = p[6] + x, gy = p[7] + y;
            unsigned short want = gx >= 0 && gx < p[0] && gy < p[1] ? h[((size_t)p[8] * p[1] + gy) * p[0] + gx] : 0;
            int sx = p[5] == 3 ? (((x / 8) ^ (y % 8)) * 8 + x % 8) : x; /* 128B swizzle: 16-byte chunk ^ row%8 */
            if (o[y * p[3] + sx] != want) ++bad;
        }
    printf("variant %d%s: encode %d, kernel %s, mismatches %d of %d\n", v, vmm ? " vmm" : "", (int)r, cudaGetErrorString(e), bad, p[3] * p[4]);
    return 0;
}
