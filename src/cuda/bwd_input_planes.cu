/* grad_input of a strided ConvTranspose1d through phase planes and the stride-1 tensor-core forward.
 *
 * grad_x = conv_transpose1d(planes, W', stride 1, padding P, groups G) where the planes are the s phase
 * planes of grad_y and W' a re-indexed weight (the maps and their derivation: bwd_input_planes.cuh;
 * float64 proof: dev/python/bwd_input_phase_planes.py). Three steps on the caller's stream:
 *   1. reindex_weight_kernel: w -> W' [G*Cout_g*R, Cin_g, P+1], zero where no tap lands (tiny);
 *   2. gather_planes_kernel: grad_y -> planes [N, G*Cout_g*R, L_in + P] (R = s / gcd(s, d) phases that
 *      taps reach); a block copies one contiguous grad_y segment of a row through shared memory
 *      (coalesced reads) and writes R contiguous plane rows (coalesced writes); zero outside [0, L_out).
 *      Pure copies: exact in every dtype;
 *   3. convt1d_fwd_tc on the stride-1 problem, writing grad_x directly.
 * The planes take about grad_y's bytes; the batch is split into chunks so that the planes scratch stays
 * under a budget (512 MiB by default), each chunk reusing it in stream order. Scratch comes from
 * cudaMallocAsync / cudaFreeAsync on the stream (no host sync; CUDA-graph capturable), like fwd_tc.cu.
 *
 * Returns CONVT1D_ERROR_NOT_SUPPORTED without recording an error when the forward kernel would not take
 * the stride-1 problem (predicted before anything is launched: f64, Cout_g*R < 8, more than 16 taps,
 * lengths or channels past its int32 limits, scratch too large, allocation failure), or when the
 * forward kernel itself declines it after the gather ran (grad_x may then be partly written; the
 * caller's fallback kernel overwrites all of it). */
#include <stdint.h>

#include "bwd_input_planes.cuh"
#include "kernels.cuh"

namespace {

/* Limits of convt1d_fwd_tc (fwd_tc.cu / fwd_tc.cuh), mirrored here so that a problem it would decline
 * is refused before the gather runs. If they drift, the late NOT_SUPPORTED path still keeps results right. */
constexpr int64_t kMinPlaneChannels = 8;         /* CONVT1D_TC_MIN_CIN_G: C_in/groups of the forward */
constexpr int64_t kMaxTaps = 16;                 /* the most tap slots of any forward tile configuration */
constexpr int64_t kFwdLim = 0x7fffffff / 2;      /* fwd_tc's INT_MAX / 2 bound on lengths and channels */
constexpr int64_t kMaxStride = 4096;             /* gather tile: one plane position of every phase fits */
constexpr int64_t kMaxWeightBytes = int64_t(1) << 30;
constexpr int64_t kMaxPlaneBytes = int64_t(2) << 30; /* one sample's planes */

constexpr int kThreads = 256;
constexpr int kTileElems = 4096; /* grad_y elements a gather block stages: TJ * s <= this (TJ >= 1) */

size_t g_plane_budget = size_t(512) << 20;

/* One task = (sample n of the chunk, grad_y row gco, tile of TJ plane positions). The block stages the
 * grad_y segment [pos(jb, 0), pos(jb, 0) + tj*s) as tile[r][j] (row stride TJ + 1), then writes plane
 * rows c = gco*R + m (phase r = r0 + gc*m), positions jb .. jb + tj. */
template <typename T>
__global__ void __launch_bounds__(kThreads)
gather_planes_kernel(const T *gy, T *planes, const convt1d_planes_geom g, int64_t n0, int64_t nb, int TJ,
                     int64_t jtiles) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *tile = reinterpret_cast<T *>(smem_raw);
    const int s = (int)g.s, row = TJ + 1;
    const int64_t cout = g.G * g.cout_g;
    const int64_t tasks = nb * cout * jtiles;
    for (int64_t t = blockIdx.x; t < tasks; t += gridDim.x) {
        const int64_t jt = t % jtiles, rowi = t / jtiles; /* rowi = n_local * C_out + gco */
        const int64_t nl = rowi / cout, gco = rowi - nl * cout;
        const int64_t jb = jt * TJ;
        const int tj = (int)(g.Lg - jb < TJ ? g.Lg - jb : TJ);
        const int seg = tj * s;
        const int64_t pos0 = convt1d_planes_pos(&g, jb, 0);
        const T *src = gy + ((n0 + nl) * cout + gco) * g.L_out;
        for (int u = threadIdx.x; u < seg; u += blockDim.x) {
            const int64_t pos = pos0 + u;
            tile[(u % s) * row + u / s] = (pos >= 0 && pos < g.L_out) ? src[pos] : T(0);
        }
        __syncthreads();
        T *dst = planes + convt1d_planes_index(&g, nl, gco * g.R, jb);
        const int wseg = tj * (int)g.R;
        for (int u = threadIdx.x; u < wseg; u += blockDim.x) {
            const int m = u / tj, j = u - m * tj;
            dst[(int64_t)m * g.Lg + j] = tile[(int)convt1d_planes_phase(&g, m) * row + j];
        }
        __syncthreads();
    }
}

/* One thread per W' element (grid-stride). */
template <typename T>
__global__ void __launch_bounds__(kThreads)
reindex_weight_kernel(const T *w, T *wp, const convt1d_planes_geom g, int64_t total) {
    const int64_t kk = g.P + 1;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t kp = i % kk, t = i / kk;
        const int64_t ci = t % g.cin_g, c = t / g.cin_g;
        const int64_t src = convt1d_planes_weight_src(&g, c, ci, kp);
        wp[i] = src >= 0 ? w[src] : T(0);
    }
}

unsigned grid_for(int64_t tasks, int64_t cap) { return (unsigned)(tasks < cap ? (tasks > 0 ? tasks : 1) : cap); }

template <typename T>
convt1d_status run(const convt1d_problem &pr, const convt1d_planes_geom &g, int64_t chunk, const void *grad_y,
                   const void *w, void *grad_x, cudaStream_t stream) {
    const int64_t wtotal = g.C1 * g.cin_g * (g.P + 1);
    const int64_t wbytes = (wtotal * (int64_t)sizeof(T) + 255) / 256 * 256;
    const int64_t pbytes = chunk * g.C1 * g.Lg * (int64_t)sizeof(T);
    void *scratch = nullptr;
    if (cudaMallocAsync(&scratch, (size_t)(wbytes + pbytes), stream) != cudaSuccess) {
        (void)cudaGetLastError(); /* out of memory here is not an error: another kernel takes the call */
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    T *wp = static_cast<T *>(scratch);
    T *planes = reinterpret_cast<T *>(static_cast<unsigned char *>(scratch) + wbytes);
    const unsigned wgrid = grid_for((wtotal + kThreads - 1) / kThreads, 4096);
    reindex_weight_kernel<T><<<wgrid, kThreads, 0, stream>>>(static_cast<const T *>(w), wp, g, wtotal);

    int TJ = (int)(kTileElems / g.s);
    if (TJ > 1024) TJ = 1024;
    if (TJ < 1) TJ = 1;
    const int64_t jtiles = (g.Lg + TJ - 1) / TJ;
    const size_t smem = (size_t)g.s * (TJ + 1) * sizeof(T);

    convt1d_problem pr2;
    pr2.cin_g = g.cout_g * g.R;
    pr2.cout_g = g.cin_g;
    pr2.dtype = pr.dtype;
    pr2.math = pr.math;
    pr2.out_length = g.L_in;
    const int64_t x_per_sample = pr.p.in_channels * g.L_in;
    convt1d_status st = CONVT1D_SUCCESS;
    for (int64_t n0 = 0; n0 < g.N && st == CONVT1D_SUCCESS; n0 += chunk) {
        const int64_t nb = g.N - n0 < chunk ? g.N - n0 : chunk;
        const unsigned ggrid = grid_for(nb * g.G * g.cout_g * jtiles, int64_t(1) << 20);
        gather_planes_kernel<T><<<ggrid, kThreads, smem, stream>>>(static_cast<const T *>(grad_y), planes, g, n0, nb,
                                                                   TJ, jtiles);
        if ((st = convt1d_cuda_check("backward_input (phase planes): gather")) != CONVT1D_SUCCESS) break;
        pr2.p = convt1d_planes_fwd_params(&g, nb);
        st = convt1d_fwd_tc(pr2, planes, wp, nullptr, static_cast<T *>(grad_x) + n0 * x_per_sample, stream);
    }
    const cudaError_t f = cudaFreeAsync(scratch, stream);
    if (st != CONVT1D_SUCCESS) return st;
    if (f != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "backward_input (phase planes): freeing scratch: %s", cudaGetErrorString(f));
    return convt1d_cuda_check("backward_input (phase planes)");
}

/* Stride 1: one phase and no gather. grad_x[ci, i] = sum_{co,k} w[ci, co, k] gy[co, i - p + k*d] is the
 * forward of the adjoint problem on grad_y itself: C_out -> C_in channels, taps flipped (k' = K-1-k),
 * same dilation, padding (K-1)*d - p (>= 0 needed), truncated to L_in outputs (output_padding only
 * lengthened grad_y). The forward kernel reads w in place (w_adjoint): no scratch, no extra launch. */
convt1d_status bwd_input_adjoint(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                 cudaStream_t stream) {
    const convt1d_params &P = pr.p;
    convt1d_problem q;
    q.p = P;
    q.p.in_channels = P.out_channels;
    q.p.out_channels = P.in_channels;
    q.p.in_length = pr.out_length;
    q.p.padding = (P.kernel_size - 1) * P.dilation - P.padding;
    q.p.output_padding = 0;
    q.out_length = P.in_length;
    q.cin_g = pr.cout_g;
    q.cout_g = pr.cin_g;
    q.dtype = pr.dtype;
    q.math = pr.math;
    q.w_adjoint = true;
    return convt1d_fwd_tc(q, grad_y, w, nullptr, grad_x, stream);
}

} // namespace

void convt1d_bwd_input_planes_set_budget(size_t bytes) { g_plane_budget = bytes ? bytes : (size_t(512) << 20); }

convt1d_status convt1d_bwd_input_planes(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                        cudaStream_t stream) {
    const convt1d_params &P = pr.p;
    if (pr.dtype != CONVT1D_F32 && pr.dtype != CONVT1D_F16 && pr.dtype != CONVT1D_BF16)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.batch == 0) return CONVT1D_SUCCESS;
    if (P.stride == 1 && P.padding <= (P.kernel_size - 1) * P.dilation)
        return bwd_input_adjoint(pr, grad_y, w, grad_x, stream);
    if (P.stride > kMaxStride) return CONVT1D_ERROR_NOT_SUPPORTED;
    const convt1d_planes_geom g = convt1d_planes_make_geom(&P, pr.out_length);
    if (g.cout_g * g.R < kMinPlaneChannels || g.P + 1 > kMaxTaps) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (g.Lg > kFwdLim || g.C1 > kFwdLim || g.G * g.cin_g > kFwdLim) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t es = (int64_t)convt1d_dtype_size(pr.dtype);
    if (g.C1 * g.cin_g * (g.P + 1) * es > kMaxWeightBytes) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t per_sample = g.C1 * g.Lg * es;
    if (per_sample > kMaxPlaneBytes) return CONVT1D_ERROR_NOT_SUPPORTED;
    int64_t chunk = (int64_t)g_plane_budget / per_sample;
    if (chunk < 1) chunk = 1;
    if (chunk > g.N) chunk = g.N;
    if (chunk > kFwdLim) chunk = kFwdLim;
    const int64_t nchunks = (g.N + chunk - 1) / chunk;
    chunk = (g.N + nchunks - 1) / nchunks; /* equal chunks: no small last one */

    /* The stride-1 problem must be valid and give exactly L_in outputs. */
    const convt1d_params q = convt1d_planes_fwd_params(&g, chunk);
    int64_t lq = 0;
    if (convt1d_output_length(&q, &lq) != CONVT1D_SUCCESS || lq != g.L_in)
        return convt1d_fail(CONVT1D_ERROR_INTERNAL,
                            "backward_input (phase planes): the stride-1 problem gives length %lld, expected %lld",
                            (long long)lq, (long long)g.L_in);

    if (es == 2) return run<uint16_t>(pr, g, chunk, grad_y, w, grad_x, stream);
    return run<uint32_t>(pr, g, chunk, grad_y, w, grad_x, stream);
}
