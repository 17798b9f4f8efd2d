/* Forward for groups == C_in (depthwise, optionally with a channel multiplier C_out/groups).
 *
 * Each output channel reads exactly one input channel, so there is no reduction over channels and the
 * layer is pure bandwidth: read x once, write y once. A block owns one (n, group) input row and a run of
 * tiles of kTile output positions; per tile it stages the input window the tile needs in shared memory, as
 * stored (zero outside [0, L_in), so the tap loop has no bounds tests), and computes every output channel of the
 * group from it. The windows go by 16-byte cp.async pieces, the next tile's in flight while this one computes
 * (double-buffered, one barrier per tile); the group's weights (regrouped by phase:
 * wp[m][r][j] = w[k0[r] + j * tap_step]) and bias are staged once per block.
 *
 * Stride phases without a division per output: output o (t = o + padding) of phase r = t mod s is reached
 * by taps k = k0[r] + j * tap_step, at input q - a0[r] - j * in_step (q = t div s), with
 * tap_step = s / gcd(s, d) and in_step = d / gcd(s, d); phases that are not multiples of gcd(s, d) get no
 * tap (bias only). The host builds the per-phase table (taps, a0).
 *
 * Lane mapping: warp w owns 32 * kPerLane consecutive outputs of the tile, lane l computes o = base + l + 32 v.
 * A warp then stores 32 consecutive elements per instruction (whole 128-byte lines in fp32) and its lanes read
 * neighbouring window words (no bank conflicts); a lane's phase and input index advance by fixed steps from
 * one v to the next (32 = qs * s + rs), so the only division is one per lane per tile. Where s divides 32
 * the lane's phase is fixed for the block (FIXED: its weights in registers, its window index + 32 / s per
 * output), and where every phase with taps has the same number NT of them (K a multiple of tap_step: the usual
 * depthwise layers) the tap loop is unrolled.
 *
 * Measured on depthwise_s2 (docs/design.md, Session 17): the kernel before this one (a 64-bit division and a
 * global weight read per output and tap, one tile per block) reached 15-30% of the copy bandwidth; per-element
 * window loads through registers cost more instructions than the outputs (16-bit issue-bound at 86%).
 */
#include "direct_common.cuh"
#include "kernels.cuh"

namespace {

using convt1d_direct::Elem;

constexpr int kThreads = 256;
constexpr int kPerLane = 16;                               /* outputs per lane per tile */
constexpr int kTile = kThreads * kPerLane;                 /* output positions per tile: 4096 */
constexpr int kMaxStride = 64;                             /* entries of the host-built phase table */
constexpr int kMaxWeights = 4096;                          /* mult * s * max taps per phase, resident */
constexpr size_t kMaxSmem = 160 * 1024;

struct dw_args {
    int rows;              /* N * groups */
    int tiles;             /* output tiles per row */
    int tpb, chunks;       /* tiles per block; blocks per row = ceil(tiles / tpb) */
    int L, L_out;
    int groups, mult;      /* mult = C_out / groups */
    int K, s, pad, d;
    int tap_step, in_step;
    int max_taps;          /* most taps of any phase: the row pitch of wp */
    int qs, rs;            /* 32 = qs * s + rs */
    int window;            /* input elements a tile reads */
    int wpitch;            /* elements of one staged window buffer: window + one 16-byte piece, rounded up */
    int async;             /* x 16-byte aligned: pieces inside the row by cp.async */
    int taps[kMaxStride];  /* taps of phase r (0: bias only) */
    int a0[kMaxStride];    /* input offset of phase r's first tap */
    int k0[kMaxStride];    /* phase r's first tap */
};

/* First input position of tile o0's window (floor division: it may be negative). */
__device__ __forceinline__ int window_lo(const dw_args &a, int o0) {
    const int lo = o0 + a.pad - (a.K - 1) * a.d;
    return lo >= 0 ? lo / a.s : -((-lo + a.s - 1) / a.s);
}

/* Stages tile o0's input window, as stored (no conversion), into xs in 16-byte pieces aligned in global
 * memory: the window's first element lands at xs[off] (returned). Pieces inside the row go by cp.async
 * (a.async), the rest (the row's ends, or x not 16-byte aligned) element by element, zero outside [0, L). */
template <typename T>
__device__ __forceinline__ int stage_window(const dw_args &a, const T *__restrict__ x, int64_t row0, int o0, T *xs) {
    constexpr int V = 16 / (int)sizeof(T);
    const int64_t g0 = row0 + window_lo(a, o0); /* global index of the window's first element */
    const int64_t ga = g0 >= 0 ? g0 / V * V : -((-g0 + V - 1) / V) * V;
    const int off = (int)(g0 - ga), pieces = (off + a.window + V - 1) / V;
    const uint32_t xs_s = (uint32_t)__cvta_generic_to_shared(xs);
    for (int pc = threadIdx.x; pc < pieces; pc += kThreads) {
        const int64_t ge = ga + (int64_t)pc * V;
        if (a.async && ge >= row0 && ge + V <= row0 + a.L) {
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(xs_s + pc * 16), "l"(x + ge) : "memory");
        } else {
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int64_t i = ge + e - row0;
                xs[pc * V + e] = (i >= 0 && i < a.L) ? x[ge + e] : Elem<T>::store(0.f);
            }
        }
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    return off;
}

/* NT > 0: every phase with taps has exactly NT of them (unrolled); NT == 0: runtime tap counts.
 * FIXED: s divides 32, so a lane keeps one phase for the whole block (its weights in registers, its window
 *        index advancing by 32 / s per output); else NT is 0. */
template <typename T, int NT, bool FIXED>
__global__ void __launch_bounds__(kThreads) depthwise_fwd_kernel(const T *__restrict__ x, const T *__restrict__ w,
                                                                 const T *__restrict__ bias, T *__restrict__ y,
                                                                 const dw_args a) {
    using Acc = typename Elem<T>::Acc;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *xs0 = reinterpret_cast<T *>(smem_raw);                        /* [2][wpitch] input windows, as stored */
    int2 *tab = reinterpret_cast<int2 *>(xs0 + 2 * a.wpitch);         /* [s] (taps, a0) */
    Acc *bs = reinterpret_cast<Acc *>(tab + a.s);                     /* [mult] bias */
    Acc *wp = bs + a.mult;                                            /* [mult][s][max_taps] weights by phase */

    const int row = blockIdx.x / a.chunks;                            /* n * groups + g */
    const int chunk = blockIdx.x - row * a.chunks;
    const int n = row / a.groups, g = row - n * a.groups;
    const int t_begin = chunk * a.tpb, t_end = min(t_begin + a.tpb, a.tiles);
    const int64_t row0 = (int64_t)row * a.L;
    if (t_begin >= t_end) return;

    /* The block's constants (made visible by the first tile's barrier). */
    for (int r = threadIdx.x; r < a.s; r += kThreads) tab[r] = make_int2(a.taps[r], a.a0[r]);
    for (int m = threadIdx.x; m < a.mult; m += kThreads) bs[m] = bias ? Elem<T>::load(bias[g * a.mult + m]) : Acc(0);
    const int per_m = a.s * a.max_taps;
    for (int e = threadIdx.x; e < a.mult * per_m; e += kThreads) {
        const int m = e / per_m, rj = e - m * per_m, r = rj / a.max_taps, j = rj - r * a.max_taps;
        wp[e] = (j < a.taps[r]) ? Elem<T>::load(w[(int64_t)(g * a.mult + m) * a.K + a.k0[r] + j * a.tap_step]) : Acc(0);
    }

    int off = stage_window(a, x, row0, t_begin * kTile, xs0);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int tile = t_begin; tile < t_end; ++tile) {
        const T *xs = xs0 + ((tile - t_begin) & 1) * a.wpitch;
        const int o0 = tile * kTile, i_lo = window_lo(a, o0) - off; /* xs[i - i_lo] holds input i */
        /* This tile's window has landed; the other buffer was last read before the previous barrier. */
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        __syncthreads();
        if (tile + 1 < t_end) /* the next tile's window, in flight while this one computes */
            off = stage_window(a, x, row0, o0 + kTile, xs0 + ((tile + 1 - t_begin) & 1) * a.wpitch);

        /* This lane's outputs o = ob + 32 v and the phase of the first; warps past the row's end rest. */
        const int ob = o0 + warp * 32 * kPerLane + lane;
        const int o_end = min(o0 + kTile, a.L_out);
        if (o0 + warp * 32 * kPerLane >= o_end) continue;
        const int tb = ob + a.pad;
        const int qb = tb / a.s, rb = tb - qb * a.s;
        for (int m = 0; m < a.mult; ++m) {
            const int c = g * a.mult + m;
            const Acc b = bs[m];
            const Acc *wm = wp + m * per_m;
            T *yrow = y + ((int64_t)n * a.groups * a.mult + c) * a.L_out;
            if constexpr (FIXED) {
                const int2 ph = tab[rb];
                int i0 = qb - ph.y - i_lo;
                if constexpr (NT > 0) {
                    Acc wr[NT];
#pragma unroll
                    for (int j = 0; j < NT; ++j) wr[j] = wm[rb * a.max_taps + j];
#pragma unroll
                    for (int v = 0; v < kPerLane; ++v, i0 += a.qs) {
                        Acc acc = b;
                        if (ph.x) {
#pragma unroll
                            for (int j = 0; j < NT; ++j) acc += wr[j] * Elem<T>::load(xs[i0 - j * a.in_step]);
                        }
                        if (ob + 32 * v < o_end) yrow[ob + 32 * v] = Elem<T>::store(acc);
                    }
                } else {
                    const Acc *wr = wm + rb * a.max_taps;
#pragma unroll 2
                    for (int v = 0; v < kPerLane; ++v, i0 += a.qs) {
                        Acc acc = b;
                        int i = i0;
                        for (int j = 0; j < ph.x; ++j, i -= a.in_step) acc += wr[j] * Elem<T>::load(xs[i]);
                        if (ob + 32 * v < o_end) yrow[ob + 32 * v] = Elem<T>::store(acc);
                    }
                }
            } else { /* the phase moves by rs from one output to the next */
                int q = qb, r = rb;
#pragma unroll 2
                for (int v = 0; v < kPerLane; ++v) {
                    const int2 ph = tab[r];
                    const Acc *wr = wm + r * a.max_taps;
                    Acc acc = b;
                    int i = q - ph.y - i_lo;
                    for (int j = 0; j < ph.x; ++j, i -= a.in_step) acc += wr[j] * Elem<T>::load(xs[i]);
                    if (ob + 32 * v < o_end) yrow[ob + 32 * v] = Elem<T>::store(acc);
                    q += a.qs;
                    r += a.rs;
                    if (r >= a.s) { r -= a.s; ++q; }
                }
            }
        }
    }
}

template <typename T, int NT, bool FIXED>
cudaError_t launch_k(const dw_args &a, size_t smem, const void *x, const void *w, const void *bias, void *y,
                     cudaStream_t stream) {
    auto kern = depthwise_fwd_kernel<T, NT, FIXED>;
    if (smem > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess) return e;
    }
    kern<<<(unsigned)a.rows * (unsigned)a.chunks, kThreads, smem, stream>>>((const T *)x, (const T *)w,
                                                                           (const T *)bias, (T *)y, a);
    return cudaGetLastError();
}

/* Unrolled instantiations for the tap counts of common layers (K / tap_step: K = 2s, 3s, 4s, 6s; K < s) with
 * a fixed phase per lane; others (and float64) take the runtime loop. */
template <typename T>
cudaError_t launch(const dw_args &a, int nt, size_t smem, const void *x, const void *w, const void *bias, void *y,
                   cudaStream_t stream) {
    if (a.rs != 0) return launch_k<T, 0, false>(a, smem, x, w, bias, y, stream);
    switch (sizeof(T) == 8 ? 0 : nt) {
    case 1: return launch_k<T, 1, true>(a, smem, x, w, bias, y, stream);
    case 2: return launch_k<T, 2, true>(a, smem, x, w, bias, y, stream);
    case 3: return launch_k<T, 3, true>(a, smem, x, w, bias, y, stream);
    case 4: return launch_k<T, 4, true>(a, smem, x, w, bias, y, stream);
    case 6: return launch_k<T, 6, true>(a, smem, x, w, bias, y, stream);
    default: return launch_k<T, 0, true>(a, smem, x, w, bias, y, stream);
    }
}

int gcd_int(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }

} // namespace

convt1d_status convt1d_fwd_depthwise(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                     void *y, cudaStream_t stream) {
    const convt1d_params &p = pr.p;
    /* int32 positions and rows: o + padding and the window's offsets stay far below 2^31. */
    if (pr.cin_g != 1 || p.stride > kMaxStride || p.kernel_size > kMaxWeights || p.dilation > (1 << 20) ||
        p.padding > (1 << 28) || p.in_length > (1 << 28) || pr.out_length > (1 << 29) ||
        (int64_t)p.dilation * (p.kernel_size - 1) > (1 << 28) || p.batch * p.groups > 0x7fffffffLL ||
        pr.cout_g > kMaxWeights)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    dw_args a;
    a.rows = (int)(p.batch * p.groups);
    a.tiles = (int)((pr.out_length + kTile - 1) / kTile);
    a.L = (int)p.in_length;
    a.L_out = (int)pr.out_length;
    a.groups = (int)p.groups;
    a.mult = (int)pr.cout_g;
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
    const int64_t weights = (int64_t)a.mult * a.s * a.max_taps;
    const size_t acc_bytes = pr.dtype == CONVT1D_F64 ? 8 : 4, es = convt1d_dtype_size(pr.dtype);
    const int64_t V = 16 / (int64_t)es, wpitch = (window + 2 * V - 2) / V * V; /* whole pieces from any offset */
    const size_t smem = 2 * (size_t)wpitch * es + sizeof(int2) * (size_t)a.s + ((size_t)a.mult + weights) * acc_bytes;
    if (weights > kMaxWeights || smem > kMaxSmem) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.window = (int)window;
    a.wpitch = (int)wpitch;
    a.async = ((uintptr_t)x & 15) == 0;
    /* Tiles per block: a few waves of eight blocks per SM, the row's tiles split evenly. */
    const int sms = convt1d_sm_count() > 0 ? convt1d_sm_count() : 132;
    const int64_t target = (int64_t)sms * 8 * 4;
    int64_t tpb = ((int64_t)a.rows * a.tiles) / target;
    tpb = tpb < 1 ? 1 : (tpb > a.tiles ? a.tiles : tpb);
    a.chunks = (int)((a.tiles + tpb - 1) / tpb);
    a.tpb = (a.tiles + a.chunks - 1) / a.chunks;
    if ((int64_t)a.rows * a.chunks > 0x7fffffffLL) return CONVT1D_ERROR_NOT_SUPPORTED;
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
