/* Forward for groups == C_in (depthwise, optionally with a channel multiplier C_out/groups).
 *
 * Each output channel reads exactly one input channel, so there is no reduction over channels and the
 * layer is pure bandwidth: read x once, write y once. A block owns one (n, group) input row and a tile of
 * kTile output positions: it stages the input window the tile needs in shared memory (zero outside
 * [0, L_in), so the tap loop has no bounds tests), then every output channel of the group is computed from
 * that window.
 *
 * Stride phases without a division per output: output o (t = o + padding) of phase r = t mod s is reached
 * by taps k = k0[r] + j * tap_step, at input q - a0[r] - j * in_step (q = t div s), with
 * tap_step = s / gcd(s, d) and in_step = d / gcd(s, d); phases that are not multiples of gcd(s, d) get no
 * tap (bias only). The host builds the per-phase table (taps, a0) once per call; the block keeps it and
 * the group's weights regrouped by phase (wp[r][j] = w[k0[r] + j * tap_step]) in shared memory.
 *
 * Lane mapping: warp w owns 32 * kPerLane consecutive outputs, lane l computes o = base + l + 32 * v. A warp
 * then stores 32 consecutive elements per instruction (whole 128-byte lines in fp32) and its lanes read
 * neighbouring window words (no bank conflicts), and each lane's phase and input index advance by fixed
 * steps from one v to the next (32 = qs * s + rs), so the only division is one per lane per tile.
 *
 * Where every phase that has taps has the same number NT of them (K a multiple of tap_step: the usual
 * depthwise layers, K = 2s or 3s ...), the tap loop is unrolled for NT and, when s divides 32 (a lane keeps
 * its phase for the whole tile), the lane's NT weights sit in registers. Other layers take the runtime loop.
 * The kernel before this one (one 64-bit division and a global weight read per output and tap) reached
 * 15-30% of the copy bandwidth on depthwise_s2 (docs/design.md, Session 17).
 */
#include "direct_common.cuh"
#include "kernels.cuh"

namespace {

using convt1d_direct::Elem;

constexpr int kThreads = 256;
constexpr int kPerLane = 8;                                /* outputs per lane per tile */
constexpr int kTile = kThreads * kPerLane;                 /* output positions per block: 2048 */
constexpr int kMaxWindow = 16384;                          /* input elements staged per block */
constexpr int kMaxStride = 64;                             /* entries of the host-built phase table */
constexpr int kMaxWeights = 4096;                          /* s * max taps per phase, per output channel */

struct dw_args {
    int64_t rows;          /* N * groups */
    int tiles;             /* output tiles per row */
    int L, L_out;
    int64_t groups, mult;  /* mult = C_out / groups */
    int K, s, pad, d;
    int tap_step, in_step;
    int max_taps;          /* most taps of any phase: the row pitch of wp */
    int qs, rs;            /* 32 = qs * s + rs */
    int window;            /* staged input elements per block */
    int taps[kMaxStride];  /* taps of phase r (0: bias only) */
    int a0[kMaxStride];    /* input offset of phase r's first tap */
    int k0[kMaxStride];    /* phase r's first tap */
};

/* NT > 0: every phase with taps has exactly NT of them (unrolled); NT == 0: runtime tap counts. */
template <typename T, int NT>
__global__ void __launch_bounds__(kThreads) depthwise_fwd_kernel(const T *__restrict__ x, const T *__restrict__ w,
                                                                 const T *__restrict__ bias, T *__restrict__ y,
                                                                 const dw_args a) {
    using Acc = typename Elem<T>::Acc;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    int2 *tab = reinterpret_cast<int2 *>(smem_raw);                  /* [s] (taps, a0) */
    Acc *xs = reinterpret_cast<Acc *>(tab + a.s);                     /* [window] */
    Acc *wp = xs + a.window;                                          /* [s][max_taps] weights by phase */

    const int64_t row = blockIdx.x / a.tiles;               /* n * groups + g */
    const int tile = (int)(blockIdx.x - row * a.tiles);
    const int64_t n = row / a.groups, g = row - n * a.groups;
    const int o0 = tile * kTile;

    /* Input window [i_lo, i_lo + window) covers every tap of every output in the tile (floor division). */
    const int lo = o0 + a.pad - (a.K - 1) * a.d;
    const int i_lo = lo >= 0 ? lo / a.s : -((-lo + a.s - 1) / a.s);
    const T *xrow = x + row * (int64_t)a.L;
    for (int j = threadIdx.x; j < a.window; j += kThreads) {
        const int i = i_lo + j;
        xs[j] = (i >= 0 && i < a.L) ? Elem<T>::load(xrow[i]) : Acc(0);
    }
    for (int r = threadIdx.x; r < a.s; r += kThreads) tab[r] = make_int2(a.taps[r], a.a0[r]);

    /* This lane's first output and its phase; later outputs step by 32. */
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int ob = o0 + warp * 32 * kPerLane + lane;
    const int tb = ob + a.pad;
    const int qb = tb / a.s, rb = tb - qb * a.s;
    const int o_end = min(o0 + kTile, a.L_out);

    for (int64_t m = 0; m < a.mult; ++m) {
        const int64_t c = g * a.mult + m;
        if (m > 0) __syncthreads(); /* every lane is done with the previous channel's weights */
        const T *wc = w + c * a.K;  /* w[g, m, :] since C_in/groups == 1 */
        for (int e = threadIdx.x; e < a.s * a.max_taps; e += kThreads) {
            const int r = e / a.max_taps, j = e - r * a.max_taps;
            const int k = a.k0[r] + j * a.tap_step;
            wp[e] = (j < a.taps[r]) ? Elem<T>::load(wc[k]) : Acc(0);
        }
        __syncthreads();
        const Acc b = bias ? Elem<T>::load(bias[c]) : Acc(0);
        T *yrow = y + (n * a.groups * a.mult + c) * (int64_t)a.L_out;

        int q = qb, r = rb;
        if constexpr (NT > 0) {
            Acc wr[NT];
#pragma unroll
            for (int j = 0; j < NT; ++j) wr[j] = wp[r * a.max_taps + j];
#pragma unroll
            for (int v = 0; v < kPerLane; ++v) {
                const int o = ob + 32 * v;
                const int2 ph = tab[r];
                Acc acc = b;
                if (ph.x) {
                    if (a.rs != 0) { /* the phase moves from one v to the next: this output's weights */
#pragma unroll
                        for (int j = 0; j < NT; ++j) wr[j] = wp[r * a.max_taps + j];
                    }
                    const int i0 = q - ph.y - i_lo;
#pragma unroll
                    for (int j = 0; j < NT; ++j) acc += wr[j] * xs[i0 - j * a.in_step];
                }
                if (o < o_end) yrow[o] = Elem<T>::store(acc);
                q += a.qs;
                r += a.rs;
                if (r >= a.s) { r -= a.s; ++q; }
            }
        } else {
#pragma unroll 2
            for (int v = 0; v < kPerLane; ++v) {
                const int o = ob + 32 * v;
                const int2 ph = tab[r];
                const Acc *wr = wp + r * a.max_taps;
                Acc acc = b;
                int i = q - ph.y - i_lo;
                for (int j = 0; j < ph.x; ++j, i -= a.in_step) acc += wr[j] * xs[i];
                if (o < o_end) yrow[o] = Elem<T>::store(acc);
                q += a.qs;
                r += a.rs;
                if (r >= a.s) { r -= a.s; ++q; }
            }
        }
    }
}

template <typename T, int NT>
cudaError_t launch_nt(const dw_args &a, size_t smem, const void *x, const void *w, const void *bias, void *y,
                      cudaStream_t stream) {
    auto kern = depthwise_fwd_kernel<T, NT>;
    if (smem > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess) return e;
    }
    kern<<<(unsigned)(a.rows * a.tiles), kThreads, smem, stream>>>((const T *)x, (const T *)w, (const T *)bias,
                                                                   (T *)y, a);
    return cudaGetLastError();
}

/* Unrolled instantiations for the tap counts of common layers (K / tap_step); others take the loop. */
template <typename T>
cudaError_t launch(const dw_args &a, int nt, size_t smem, const void *x, const void *w, const void *bias, void *y,
                   cudaStream_t stream) {
    switch (nt) {
    case 1: return launch_nt<T, 1>(a, smem, x, w, bias, y, stream);
    case 2: return launch_nt<T, 2>(a, smem, x, w, bias, y, stream);
    case 3: return launch_nt<T, 3>(a, smem, x, w, bias, y, stream);
    case 4: return launch_nt<T, 4>(a, smem, x, w, bias, y, stream);
    case 6: return launch_nt<T, 6>(a, smem, x, w, bias, y, stream);
    case 8: return launch_nt<T, 8>(a, smem, x, w, bias, y, stream);
    default: return launch_nt<T, 0>(a, smem, x, w, bias, y, stream);
    }
}

int gcd_int(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }

} // namespace

convt1d_status convt1d_fwd_depthwise(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                     void *y, cudaStream_t stream) {
    const convt1d_params &p = pr.p;
    /* int32 positions: o + padding and the window's offsets stay far below 2^31. */
    if (pr.cin_g != 1 || p.stride > kMaxStride || p.kernel_size > kMaxWeights || p.dilation > (1 << 20) ||
        p.padding > (1 << 28) || p.in_length > (1 << 28) || pr.out_length > (1 << 29) ||
        (int64_t)p.dilation * (p.kernel_size - 1) > (1 << 28))
        return CONVT1D_ERROR_NOT_SUPPORTED;
    dw_args a;
    a.rows = p.batch * p.groups;
    a.tiles = (int)((pr.out_length + kTile - 1) / kTile);
    a.L = (int)p.in_length;
    a.L_out = (int)pr.out_length;
    a.groups = p.groups;
    a.mult = pr.cout_g;
    a.K = (int)p.kernel_size;
    a.s = (int)p.stride;
    a.pad = (int)p.padding;
    a.d = (int)p.dilation;
    const int gg = gcd_int(a.s, a.d);
    a.tap_step = a.s / gg;
    a.in_step = a.d / gg;
    a.qs = 32 / a.s;
    a.rs = 32 % a.s;
    /* Phase table: taps k with k*d = r (mod s) are k0[r] + j*tap_step; k0[r] < tap_step. */
    int nt = -1; /* the common tap count of the phases that have taps, or 0 if they differ */
    a.max_taps = 1;
    for (int r = 0; r < a.s; ++r) {
        a.taps[r] = 0; a.a0[r] = 0; a.k0[r] = 0;
    }
    for (int k = 0; k < a.K && k < a.tap_step; ++k) {
        const int r = (int)(((int64_t)k * a.d) % a.s);
        a.k0[r] = k;
        a.a0[r] = (int)(((int64_t)k * a.d - r) / a.s);
        a.taps[r] = (a.K - k + a.tap_step - 1) / a.tap_step;
        a.max_taps = a.taps[r] > a.max_taps ? a.taps[r] : a.max_taps;
        nt = nt < 0 ? a.taps[r] : (nt == a.taps[r] ? nt : 0);
    }
    const int64_t window = (kTile - 1 + (int64_t)a.d * (a.K - 1)) / a.s + 2;
    if (window > kMaxWindow || (int64_t)a.s * a.max_taps > kMaxWeights || a.rows * a.tiles > 0x7fffffffLL)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    a.window = (int)window;
    const size_t acc_bytes = pr.dtype == CONVT1D_F64 ? 8 : 4;
    const size_t smem = ((size_t)a.window + (size_t)a.s * a.max_taps) * acc_bytes + sizeof(int2) * (size_t)a.s;
    cudaError_t e;
    switch (pr.dtype) {
    case CONVT1D_F32: e = launch<float>(a, nt, smem, x, w, bias, y, stream); break;
    case CONVT1D_F16: e = launch<__half>(a, nt, smem, x, w, bias, y, stream); break;
    case CONVT1D_BF16: e = launch<__nv_bfloat16>(a, nt, smem, x, w, bias, y, stream); break;
    case CONVT1D_F64: e = launch<double>(a, nt, smem, x, w, bias, y, stream); break;
    default: return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "depthwise forward kernel: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}
