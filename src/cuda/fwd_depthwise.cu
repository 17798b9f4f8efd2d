/* Forward for groups == C_in (depthwise, optionally with a channel multiplier C_out/groups).
 *
 * Each output channel reads exactly one input channel, so there is no reduction over channels and the
 * layer is pure bandwidth: read x once, write y once. A block owns one (n, group) input row and a tile of
 * output positions: it stages the input window the tile needs in shared memory (zero outside [0, L_in),
 * so the tap loop has no bounds tests), then every output channel of the group is computed from that window.
 *
 * Stride phases without a divisibility test per tap: output o (t = o + padding) of phase r = t mod s is
 * reached by taps k = k0[r] + j * tap_step, at input q - a0[r] - j * in_step (q = t div s), with
 * tap_step = s / gcd(s, d) and in_step = d / gcd(s, d). The per-phase (k0, a0) table lives in shared memory.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels.cuh"

namespace {

constexpr int kThreads = 256;
constexpr int kTile = 2048;           /* output positions per block */
constexpr int kMaxWindow = 16384;     /* input elements staged per block (64 KB as float) */
constexpr int kMaxStride = 1024;      /* phase-table entries */

template <typename T> struct acc_of { typedef float type; };
template <> struct acc_of<double> { typedef double type; };

/* Loads widen to the accumulator type (float, or double for f64); stores round back. */
__device__ __forceinline__ float ld(float v) { return v; }
__device__ __forceinline__ float ld(__half v) { return __half2float(v); }
__device__ __forceinline__ float ld(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ double ld(double v) { return v; }
__device__ __forceinline__ void st(float *p, float v) { *p = v; }
__device__ __forceinline__ void st(__half *p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ void st(__nv_bfloat16 *p, float v) { *p = __float2bfloat16_rn(v); }
__device__ __forceinline__ void st(double *p, double v) { *p = v; }

struct dw_args {
    int64_t rows;       /* N * groups */
    int64_t tiles;      /* output tiles per row */
    int64_t L, L_out;
    int64_t groups, mult; /* mult = C_out / groups */
    int K, s, pad, d;
    int tap_step, in_step;
    int window;         /* staged input elements per block */
};

template <typename T>
__global__ void __launch_bounds__(kThreads) depthwise_fwd_kernel(const T *__restrict__ x, const T *__restrict__ w,
                                                                 const T *__restrict__ bias, T *__restrict__ y,
                                                                 dw_args a) {
    typedef typename acc_of<T>::type acc_t;
    extern __shared__ unsigned char smem_raw[];
    acc_t *xs = reinterpret_cast<acc_t *>(smem_raw);               /* [window] */
    int *k0 = reinterpret_cast<int *>(xs + a.window);               /* [s] first tap of each phase, -1: none */
    int *a0 = k0 + a.s;                                             /* [s] its input offset */

    const int64_t row = blockIdx.x / a.tiles;                       /* n * groups + g */
    const int64_t tile = blockIdx.x - row * a.tiles;
    const int64_t n = row / a.groups, g = row - n * a.groups;
    const int64_t o0 = tile * kTile;
    const int64_t o_end = min(o0 + (int64_t)kTile, a.L_out);

    /* Input window: i in [i_lo, i_lo + window) covers every tap of every output in the tile. */
    const int64_t i_lo = (o0 + a.pad - (int64_t)a.d * (a.K - 1)) >= 0
                             ? (o0 + a.pad - (int64_t)a.d * (a.K - 1)) / a.s
                             : -((-(o0 + a.pad - (int64_t)a.d * (a.K - 1)) + a.s - 1) / a.s);
    const T *xrow = x + row * a.L;
    for (int j = threadIdx.x; j < a.window; j += kThreads) {
        int64_t i = i_lo + j;
        xs[j] = (i >= 0 && i < a.L) ? ld(xrow[i]) : (acc_t)0;
    }
    for (int r = threadIdx.x; r < a.s; r += kThreads) {
        int first = -1;
        for (int k = 0; k < a.K && k < a.tap_step; ++k)
            if ((int)(((int64_t)k * a.d) % a.s) == r) { first = k; break; }
        k0[r] = first;
        a0[r] = first < 0 ? 0 : (int)(((int64_t)first * a.d - r) / a.s);
    }
    __syncthreads();

    for (int64_t m = 0; m < a.mult; ++m) {
        const int64_t c = g * a.mult + m;
        const T *wk = w + (g * a.mult + m) * a.K; /* w[g, m, :] since C_in/groups == 1 */
        const acc_t b = bias ? ld(bias[c]) : (acc_t)0;
        T *yrow = y + (n * a.groups * a.mult + c) * a.L_out;
        for (int64_t o = o0 + threadIdx.x; o < o_end; o += kThreads) {
            const int64_t t = o + a.pad;
            const int64_t q = t / a.s;
            const int r = (int)(t - q * a.s);
            acc_t acc = b;
            int k = k0[r];
            if (k >= 0) {
                int j = (int)(q - a0[r] - i_lo);
                for (; k < a.K; k += a.tap_step, j -= a.in_step) acc += ld(wk[k]) * xs[j];
            }
            st(yrow + o, acc);
        }
    }
}

template <typename T>
cudaError_t launch(const dw_args &a, size_t smem, const void *x, const void *w, const void *bias, void *y,
                   cudaStream_t stream) {
    if (smem > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(depthwise_fwd_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess) return e;
    }
    depthwise_fwd_kernel<T><<<(unsigned)(a.rows * a.tiles), kThreads, smem, stream>>>(
        (const T *)x, (const T *)w, (const T *)bias, (T *)y, a);
    return cudaGetLastError();
}

int gcd_int(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }

} // namespace

convt1d_status convt1d_fwd_depthwise(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                     void *y, cudaStream_t stream) {
    const convt1d_params &p = pr.p;
    if (pr.cin_g != 1 || p.stride > kMaxStride || p.kernel_size > (1 << 20) || p.dilation > (1 << 20) ||
        p.padding > (1 << 30))
        return CONVT1D_ERROR_NOT_SUPPORTED;
    dw_args a;
    a.rows = p.batch * p.groups;
    a.tiles = (pr.out_length + kTile - 1) / kTile;
    a.L = p.in_length;
    a.L_out = pr.out_length;
    a.groups = p.groups;
    a.mult = pr.cout_g;
    a.K = (int)p.kernel_size;
    a.s = (int)p.stride;
    a.pad = (int)p.padding;
    a.d = (int)p.dilation;
    int gg = gcd_int(a.s, a.d);
    a.tap_step = a.s / gg;
    a.in_step = a.d / gg;
    int64_t window = (kTile - 1 + (int64_t)a.d * (a.K - 1)) / a.s + 2;
    if (window > kMaxWindow || a.rows * a.tiles > 0x7fffffffLL) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.window = (int)window;
    size_t acc_bytes = pr.dtype == CONVT1D_F64 ? 8 : 4;
    size_t smem = (size_t)a.window * acc_bytes + 2 * sizeof(int) * (size_t)a.s;
    cudaError_t e;
    switch (pr.dtype) {
    case CONVT1D_F32: e = launch<float>(a, smem, x, w, bias, y, stream); break;
    case CONVT1D_F16: e = launch<__half>(a, smem, x, w, bias, y, stream); break;
    case CONVT1D_BF16: e = launch<__nv_bfloat16>(a, smem, x, w, bias, y, stream); break;
    case CONVT1D_F64: e = launch<double>(a, smem, x, w, bias, y, stream); break;
    default: return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "depthwise forward kernel: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}
