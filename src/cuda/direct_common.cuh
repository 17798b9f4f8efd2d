/* Pieces shared by the direct (CUDA-core) kernels, fwd_direct.cu and bwd_direct.cu. */
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

namespace convt1d_direct {

/* Element type -> accumulator type (f32, or f64 for f64) and the conversions both ways. */
template <typename T> struct Elem;
template <> struct Elem<float> {
    using Acc = float;
    static __device__ __forceinline__ float load(float v) { return v; }
    static __device__ __forceinline__ float store(float v) { return v; }
};
template <> struct Elem<double> {
    using Acc = double;
    static __device__ __forceinline__ double load(double v) { return v; }
    static __device__ __forceinline__ double store(double v) { return v; }
};
template <> struct Elem<__half> {
    using Acc = float;
    static __device__ __forceinline__ float load(__half v) { return __half2float(v); }
    static __device__ __forceinline__ __half store(float v) { return __float2half_rn(v); }
};
template <> struct Elem<__nv_bfloat16> {
    using Acc = float;
    static __device__ __forceinline__ float load(__nv_bfloat16 v) { return __bfloat162float(v); }
    static __device__ __forceinline__ __nv_bfloat16 store(float v) { return __float2bfloat16_rn(v); }
};

/* N consecutive values from 16-byte aligned shared memory, with 128-bit loads where possible. */
template <typename Acc, int N>
__device__ __forceinline__ void lds_vec(const Acc *p, Acc (&v)[N]) {
    if constexpr (sizeof(Acc) == 4 && N % 4 == 0) {
#pragma unroll
        for (int u = 0; u < N; u += 4) {
            const float4 t = *reinterpret_cast<const float4 *>(p + u);
            v[u] = t.x; v[u + 1] = t.y; v[u + 2] = t.z; v[u + 3] = t.w;
        }
    } else if constexpr (sizeof(Acc) == 8 && N % 2 == 0) {
#pragma unroll
        for (int u = 0; u < N; u += 2) {
            const double2 t = *reinterpret_cast<const double2 *>(p + u);
            v[u] = t.x; v[u + 1] = t.y;
        }
    } else {
#pragma unroll
        for (int u = 0; u < N; ++u) v[u] = p[u];
    }
}

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* CONVT1D_FORCE_INDEX64=1 makes the direct kernels take their int64-index path (tests cover it on
 * small shapes that way). */
inline bool force_index64() {
    const char *v = convt1d_env("CONVT1D_FORCE_INDEX64");
    return v && v[0] && v[0] != '0';
}

} // namespace convt1d_direct
