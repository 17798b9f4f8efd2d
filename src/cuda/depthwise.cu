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
#include <cstdlib>
#include <type_traits>

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

/* The layer and the block split, common to the three kernels' arguments (layer_args fills the layer). */
struct dw_layer {
    int rows;              /* N * groups */
    int tiles;             /* tiles per row (forward: of kTile outputs; gradients: of kTileB inputs) */
    int tpb, chunks;       /* tiles per block; blocks per row = ceil(tiles / tpb) */
    int L, L_out;
    int groups, mult;      /* mult = C_out / groups */
    int K, s, pad, d;
};

struct dw_args : dw_layer {
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

/* Stages `count` elements of one row (row0: the row's first element in src; len: its length) from position
 * `start` on (it may lie outside the row: zeros there), as stored (no conversion), into buf in 16-byte pieces
 * aligned in global memory: element `start` lands at buf[off] (returned). Pieces inside the row go by cp.async
 * (async: src 16-byte aligned), the rest (the row's ends) element by element. Commits one cp.async group. */
template <typename T>
__device__ __forceinline__ int stage_row(const T *__restrict__ src, int64_t row0, int len, int start, int count,
                                         bool async, T *buf) {
    constexpr int V = 16 / (int)sizeof(T);
    const int64_t g0 = row0 + start; /* global index of the first element */
    const int64_t ga = g0 >= 0 ? g0 / V * V : -((-g0 + V - 1) / V) * V;
    const int off = (int)(g0 - ga), pieces = (off + count + V - 1) / V;
    const uint32_t buf_s = (uint32_t)__cvta_generic_to_shared(buf);
    for (int pc = threadIdx.x; pc < pieces; pc += kThreads) {
        const int64_t ge = ga + (int64_t)pc * V;
        if (async && ge >= row0 && ge + V <= row0 + len) {
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(buf_s + pc * 16), "l"(src + ge) : "memory");
        } else {
#pragma unroll
            for (int e = 0; e < V; ++e) {
                const int64_t i = ge + e - row0;
                buf[pc * V + e] = (i >= 0 && i < len) ? src[ge + e] : Elem<T>::store(0.f);
            }
        }
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    return off;
}

/* Tile o0's input window into xs (see stage_row). */
template <typename T>
__device__ __forceinline__ int stage_window(const dw_args &a, const T *__restrict__ x, int64_t row0, int o0, T *xs) {
    return stage_row(x, row0, a.L, window_lo(a, o0), a.window, a.async != 0, xs);
}

/* NT > 0: every phase with taps has exactly NT of them (unrolled); NT == 0: runtime tap counts.
 * FIXED: s divides 32, so a lane keeps one phase for the whole block (its weights in registers, its window
 *        index advancing by qs = 32 / s per output); else NT is 0.
 * QS: qs as a constant (32: stride 1, 16: stride 2), 0: read from the arguments. */
template <typename T, int NT, bool FIXED, int QS>
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
                    /* Tap j of output v reads pj[j][v * qs]: with qs a constant (QS) every read is one shared load at
                     * an immediate offset, every store one at an immediate offset from yo. Lanes whose phase has no
                     * tap (gcd(s, d) > 1) store the bias: a branch per lane and channel, not per output. */
                    Acc wr[NT];
                    const T *pj[NT];
#pragma unroll
                    for (int j = 0; j < NT; ++j) {
                        wr[j] = wm[rb * a.max_taps + j];
                        pj[j] = xs + i0 - j * a.in_step;
                    }
                    const int qs = QS > 0 ? QS : a.qs;
                    T *yo = yrow + ob;
                    const bool full = o0 + (warp + 1) * 32 * kPerLane <= a.L_out; /* the warp's outputs all exist */
                    auto outputs = [&](auto taps_c, auto full_c) {
                        constexpr bool TAPS = decltype(taps_c)::value, FULL = decltype(full_c)::value;
#pragma unroll
                        for (int v = 0; v < kPerLane; ++v) {
                            Acc acc = b;
                            if constexpr (TAPS) {
#pragma unroll
                                for (int j = 0; j < NT; ++j) acc += wr[j] * Elem<T>::load(pj[j][v * qs]);
                            }
                            if (FULL || ob + 32 * v < o_end) yo[32 * v] = Elem<T>::store(acc);
                        }
                    };
                    using yes = std::true_type;
                    using no = std::false_type;
                    if (ph.x) {
                        if (full) outputs(yes(), yes()); else outputs(yes(), no());
                    } else {
                        if (full) outputs(no(), yes()); else outputs(no(), no());
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

/* Raises kern's dynamic shared-memory limit where smem is over the 48 KB every kernel may take. */
template <typename Kern>
cudaError_t allow_smem(Kern kern, size_t smem) {
    return smem > 48 * 1024 ? cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)
                            : cudaSuccess;
}

template <typename T, int NT, bool FIXED, int QS = 0>
cudaError_t launch_k(const dw_args &a, size_t smem, const void *x, const void *w, const void *bias, void *y,
                     cudaStream_t stream) {
    auto kern = depthwise_fwd_kernel<T, NT, FIXED, QS>;
    if (cudaError_t e = allow_smem(kern, smem)) return e;
    kern<<<(unsigned)a.rows * (unsigned)a.chunks, kThreads, smem, stream>>>((const T *)x, (const T *)w,
                                                                           (const T *)bias, (T *)y, a);
    return cudaGetLastError();
}

/* A fixed phase per lane, NT taps unrolled; strides 1 and 2 with the window step a constant. */
template <typename T, int NT>
cudaError_t launch_fixed(const dw_args &a, size_t smem, const void *x, const void *w, const void *bias, void *y,
                         cudaStream_t stream) {
    if (a.s == 1) return launch_k<T, NT, true, 32>(a, smem, x, w, bias, y, stream);
    if (a.s == 2) return launch_k<T, NT, true, 16>(a, smem, x, w, bias, y, stream);
    return launch_k<T, NT, true, 0>(a, smem, x, w, bias, y, stream);
}

/* Unrolled instantiations for the tap counts of common layers (K / tap_step: K = 2s, 3s, 4s, 6s; K < s) with
 * a fixed phase per lane; others (and float64) take the runtime loop. */
template <typename T>
cudaError_t launch(const dw_args &a, int nt, size_t smem, const void *x, const void *w, const void *bias, void *y,
                   cudaStream_t stream) {
    if (a.rs != 0) return launch_k<T, 0, false>(a, smem, x, w, bias, y, stream);
    switch (sizeof(T) == 8 ? 0 : nt) {
    case 1: return launch_fixed<T, 1>(a, smem, x, w, bias, y, stream);
    case 2: return launch_fixed<T, 2>(a, smem, x, w, bias, y, stream);
    case 3: return launch_fixed<T, 3>(a, smem, x, w, bias, y, stream);
    case 4: return launch_fixed<T, 4>(a, smem, x, w, bias, y, stream);
    case 6: return launch_fixed<T, 6>(a, smem, x, w, bias, y, stream);
    default: return launch_k<T, 0, true>(a, smem, x, w, bias, y, stream);
    }
}

/* ---- grad_input: gx[n, g, i] = sum_m sum_k w[g, m, k] * gy[n, g*mult + m, i*s - padding + k*d] ----
 *
 * The adjoint of the forward above: a depthwise strided correlation of grad_y, every input position taking all
 * K taps (no phases). A block owns one (n, group) row of grad_x and a run of tiles of kTileB positions; for each
 * tile and each of the group's mult grad_y rows it stages the grad_y window the tile reads (zero outside
 * [0, L_out)) by cp.async, double-buffered over the (tile, m) steps, and each lane sums its kPerLaneB positions
 * i = base + lane + 32 v over m in registers (fixed order: deterministic). With the stride a constant (S) every
 * read is one shared load at an immediate offset from the tap's pointer. */
constexpr int kPerLaneB = 8;
constexpr int kTileB = kThreads * kPerLaneB; /* grad_x positions per tile: 2048 */

struct dwb_args : dw_layer {
    int window;                   /* grad_y elements a tile reads: (kTileB - 1) * s + (K - 1) * d + 1 */
    int wpitch;                   /* elements of one staged window buffer (whole 16-byte pieces) */
    int async;                    /* grad_y 16-byte aligned */
    int xpitch;                   /* grad_weight: elements of one staged x tile (kTileB + one piece, whole pieces) */
    int async_x;                  /* grad_weight: x 16-byte aligned */
};

template <typename T, int NK, int S>
__global__ void __launch_bounds__(kThreads) depthwise_bwd_input_kernel(const T *__restrict__ gy,
                                                                       const T *__restrict__ w, T *__restrict__ gx,
                                                                       const dwb_args a) {
    using Acc = typename Elem<T>::Acc;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *gs0 = reinterpret_cast<T *>(smem_raw);                      /* [2][wpitch] grad_y windows, as stored */
    Acc *wsm = reinterpret_cast<Acc *>(gs0 + 2 * a.wpitch);         /* [mult][K] */

    const int row = blockIdx.x / a.chunks;                          /* n * groups + g */
    const int chunk = blockIdx.x - row * a.chunks;
    const int n = row / a.groups, g = row - n * a.groups;
    const int t_begin = chunk * a.tpb, t_end = min(t_begin + a.tpb, a.tiles);
    if (t_begin >= t_end) return;
    const int s = S > 0 ? S : a.s, K = NK > 0 ? NK : a.K;
    for (int e = threadIdx.x; e < a.mult * a.K; e += kThreads) wsm[e] = Elem<T>::load(w[(int64_t)g * a.mult * a.K + e]);

    /* Step st = (tile t_begin + st / mult, grad_y row g*mult + st % mult). */
    const int steps = (t_end - t_begin) * a.mult;
    const int64_t gy_row0 = ((int64_t)n * a.groups + g) * a.mult; /* the group's first grad_y row */
    auto stage = [&](int st, T *buf) {
        const int tile = t_begin + st / a.mult, m = st - (st / a.mult) * a.mult;
        return stage_row(gy, (gy_row0 + m) * a.L_out, a.L_out, tile * kTileB * s - a.pad, a.window, a.async != 0, buf);
    };
    int off = stage(0, gs0);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int pos = warp * 32 * kPerLaneB + lane; /* this lane's first position in the tile */
    Acc acc[kPerLaneB];
    for (int st = 0; st < steps; ++st) {
        const int tile = t_begin + st / a.mult, m = st - (st / a.mult) * a.mult;
        const T *gs = gs0 + (st & 1) * a.wpitch;
        const int off_now = off;
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        __syncthreads();
        if (st + 1 < steps) off = stage(st + 1, gs0 + ((st + 1) & 1) * a.wpitch);
        if (m == 0) {
#pragma unroll
            for (int v = 0; v < kPerLaneB; ++v) acc[v] = Acc(0);
        }
        const int i0 = tile * kTileB;
        if (i0 + warp * 32 * kPerLaneB >= a.L) continue; /* the warp's positions lie past the row */
        const Acc *wm = wsm + m * a.K;
        const T *pl = gs + off_now + pos * s;            /* tap 0 of the lane's first position */
        if constexpr (NK > 0) {
#pragma unroll
            for (int k = 0; k < NK; ++k) {
                const Acc wk = wm[k];
                const T *pk = pl + k * a.d;
#pragma unroll
                for (int v = 0; v < kPerLaneB; ++v) acc[v] += wk * Elem<T>::load(pk[v * 32 * s]);
            }
        } else {
            for (int k = 0; k < K; ++k) {
                const Acc wk = wm[k];
                const T *pk = pl + k * a.d;
#pragma unroll
                for (int v = 0; v < kPerLaneB; ++v) acc[v] += wk * Elem<T>::load(pk[v * 32 * s]);
            }
        }
        if (m == a.mult - 1) {
            T *gxr = gx + (int64_t)row * a.L + i0 + pos;
            const int left = a.L - i0 - pos;
#pragma unroll
            for (int v = 0; v < kPerLaneB; ++v)
                if (32 * v < left) gxr[32 * v] = Elem<T>::store(acc[v]);
        }
    }
}

template <typename T, int NK, int S>
cudaError_t launch_bi(const dwb_args &a, size_t smem, const void *gy, const void *w, void *gx, cudaStream_t stream) {
    auto kern = depthwise_bwd_input_kernel<T, NK, S>;
    if (cudaError_t e = allow_smem(kern, smem)) return e;
    kern<<<(unsigned)a.rows * (unsigned)a.chunks, kThreads, smem, stream>>>((const T *)gy, (const T *)w, (T *)gx, a);
    return cudaGetLastError();
}

/* Calls launch(nk, st) with the gradient kernels' compile-time tap count (K = 3, 4, 12; 0: K at run time) and
 * stride (1 and 2: constant offsets; 0: at run time) as std::integral_constant; float64 takes the general form. */
template <typename T, typename Launch>
cudaError_t grad_dispatch(const dwb_args &a, Launch launch) {
    using Z = std::integral_constant<int, 0>;
    if (sizeof(T) == 8) return launch(Z(), Z());
    auto by_stride = [&](auto nk) {
        if (a.s == 1) return launch(nk, std::integral_constant<int, 1>());
        if (a.s == 2) return launch(nk, std::integral_constant<int, 2>());
        return launch(nk, Z());
    };
    switch (a.K) {
    case 3: return by_stride(std::integral_constant<int, 3>());
    case 4: return by_stride(std::integral_constant<int, 4>());
    case 12: return by_stride(std::integral_constant<int, 12>());
    default: return by_stride(Z());
    }
}
template <typename T>
cudaError_t launch_bi_k(const dwb_args &a, size_t smem, const void *gy, const void *w, void *gx, cudaStream_t stream) {
    return grad_dispatch<T>(a, [&](auto nk, auto st) {
        return launch_bi<T, decltype(nk)::value, decltype(st)::value>(a, smem, gy, w, gx, stream);
    });
}

/* ---- grad_weight: gw[g, m, k] = sum_n sum_i x[n, g, i] * gy[n, g*mult + m, i*s - padding + k*d] ----
 *
 * The same blocks and grad_y windows as grad_input, plus the tile's x (tiles of kTileB positions of x). Per
 * grad_y row m the block runs its tiles, each lane summing x[i] * gy[...] over its positions for every tap (in
 * registers where K is a constant NK, else a warp sum per tap and tile into shared memory); then a fixed-order
 * reduction over lanes and warps writes the block's partial sums, and depthwise_bwd_weight_reduce adds the
 * blocks' partials in a fixed order: deterministic, no atomics. */
template <typename T, int NK, int S>
__global__ void __launch_bounds__(kThreads) depthwise_bwd_weight_kernel(const T *__restrict__ gy,
                                                                        const T *__restrict__ x,
                                                                        typename Elem<T>::Acc *__restrict__ part,
                                                                        const dwb_args a) {
    using Acc = typename Elem<T>::Acc;
    constexpr int kWarps = kThreads / 32;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *buf0 = reinterpret_cast<T *>(smem_raw);                      /* [2][wpitch + xpitch]: grad_y window, x tile */
    Acc *red = reinterpret_cast<Acc *>(buf0 + 2 * (a.wpitch + a.xpitch)); /* [kWarps][K] */

    const int row = blockIdx.x / a.chunks;                          /* n * groups + g */
    const int chunk = blockIdx.x - row * a.chunks;
    const int n = row / a.groups, g = row - n * a.groups;
    const int t_begin = chunk * a.tpb, t_end = min(t_begin + a.tpb, a.tiles);
    const int nt = t_end - t_begin > 0 ? t_end - t_begin : 0;
    const int s = S > 0 ? S : a.s;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int pos = warp * 32 * kPerLaneB + lane;
    Acc *out = part + (int64_t)blockIdx.x * a.mult * a.K;
    if (nt == 0) { /* an empty block still owns its partials */
        for (int e = threadIdx.x; e < a.mult * a.K; e += kThreads) out[e] = Acc(0);
        return;
    }
    for (int e = threadIdx.x; e < kWarps * a.K; e += kThreads) red[e] = Acc(0);

    /* Step st = (grad_y row g*mult + st / nt, tile t_begin + st % nt). */
    const int steps = nt * a.mult;
    const int64_t gy_row0 = ((int64_t)n * a.groups + g) * a.mult;
    int offs[2];
    auto stage = [&](int st, T *buf) {
        const int m = st / nt, tile = t_begin + st - m * nt;
        const int og = stage_row(gy, (gy_row0 + m) * a.L_out, a.L_out, tile * kTileB * s - a.pad, a.window, a.async != 0, buf);
        const int ox = stage_row(x, (int64_t)row * a.L, a.L, tile * kTileB, kTileB, a.async_x != 0, buf + a.wpitch);
        offs[0] = og;
        offs[1] = ox;
    };
    stage(0, buf0);
    Acc acc[NK > 0 ? NK : 1];
    for (int st = 0; st < steps; ++st) {
        const int m = st / nt, tile = t_begin + st - m * nt;
        const T *b = buf0 + (st & 1) * (a.wpitch + a.xpitch);
        const int og = offs[0], ox = offs[1];
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        __syncthreads();
        if (st + 1 < steps) stage(st + 1, buf0 + ((st + 1) & 1) * (a.wpitch + a.xpitch));
        if (tile == t_begin) {
#pragma unroll
            for (int k = 0; k < (NK > 0 ? NK : 1); ++k) acc[k] = Acc(0);
        }
        const int i0 = tile * kTileB;
        if (i0 + warp * 32 * kPerLaneB < a.L) { /* positions past the row hold zeros in x's tile: harmless */
            Acc xv[kPerLaneB];
#pragma unroll
            for (int v = 0; v < kPerLaneB; ++v) xv[v] = Elem<T>::load(b[a.wpitch + ox + pos + 32 * v]);
            const T *pl = b + og + pos * s;
            if constexpr (NK > 0) {
#pragma unroll
                for (int k = 0; k < NK; ++k) {
                    const T *pk = pl + k * a.d;
#pragma unroll
                    for (int v = 0; v < kPerLaneB; ++v) acc[k] += xv[v] * Elem<T>::load(pk[v * 32 * s]);
                }
            } else {
                for (int k = 0; k < a.K; ++k) {
                    const T *pk = pl + k * a.d;
                    Acc t = Acc(0);
#pragma unroll
                    for (int v = 0; v < kPerLaneB; ++v) t += xv[v] * Elem<T>::load(pk[v * 32 * s]);
#pragma unroll
                    for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(0xffffffffu, t, o);
                    if (lane == 0) red[warp * a.K + k] += t;
                }
            }
        }
        if (tile == t_end - 1) { /* the block's sums for grad_y row m */
            if constexpr (NK > 0) {
#pragma unroll
                for (int k = 0; k < NK; ++k) {
                    Acc t = acc[k];
#pragma unroll
                    for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(0xffffffffu, t, o);
                    if (lane == 0) red[warp * NK + k] = t;
                }
            }
            __syncthreads();
            for (int k = threadIdx.x; k < a.K; k += kThreads) {
                Acc t = Acc(0);
                for (int wi = 0; wi < kWarps; ++wi) t += red[wi * a.K + k];
                out[m * a.K + k] = t;
            }
            __syncthreads();
            for (int e = threadIdx.x; e < kWarps * a.K; e += kThreads) red[e] = Acc(0);
        }
    }
}

/* gw[c] = the sum of the blocks' partials of entry c (c = g * mult * K + m * K + k) over samples and chunks, in order. */
template <typename T>
__global__ void __launch_bounds__(kThreads) depthwise_bwd_weight_reduce(const typename Elem<T>::Acc *__restrict__ part,
                                                                        T *__restrict__ gw, int N, int groups,
                                                                        int chunks, int per_g) {
    using Acc = typename Elem<T>::Acc;
    const int c = blockIdx.x * kThreads + threadIdx.x;
    if (c >= groups * per_g) return;
    const int g = c / per_g, e = c - g * per_g;
    Acc t = Acc(0);
    for (int n = 0; n < N; ++n)
        for (int ch = 0; ch < chunks; ++ch) t += part[(((int64_t)n * groups + g) * chunks + ch) * per_g + e];
    gw[c] = Elem<T>::store(t);
}

template <typename T, int NK, int S>
cudaError_t launch_bw(const dwb_args &a, size_t smem, const void *gy, const void *x, void *part, cudaStream_t stream) {
    auto kern = depthwise_bwd_weight_kernel<T, NK, S>;
    if (cudaError_t e = allow_smem(kern, smem)) return e;
    kern<<<(unsigned)a.rows * (unsigned)a.chunks, kThreads, smem, stream>>>(
        (const T *)gy, (const T *)x, (typename Elem<T>::Acc *)part, a);
    return cudaGetLastError();
}
template <typename T>
cudaError_t launch_bw_k(const dwb_args &a, size_t smem, const void *gy, const void *x, void *part, void *gw,
                        cudaStream_t stream) {
    const cudaError_t e = grad_dispatch<T>(a, [&](auto nk, auto st) {
        return launch_bw<T, decltype(nk)::value, decltype(st)::value>(a, smem, gy, x, part, stream);
    });
    if (e != cudaSuccess) return e;
    const int per_g = a.mult * a.K, total = a.groups * per_g;
    depthwise_bwd_weight_reduce<T><<<(unsigned)((total + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
        (const typename Elem<T>::Acc *)part, (T *)gw, a.rows / a.groups, a.groups, a.chunks, per_g);
    return cudaGetLastError();
}

/* Calls launch(T()) with the element type of dtype (float, __half, __nv_bfloat16, double); cudaErrorInvalidValue for
 * any other. */
template <typename Launch>
cudaError_t with_dtype(convt1d_dtype dtype, Launch launch) {
    switch (dtype) {
    case CONVT1D_F32: return launch(float());
    case CONVT1D_F16: return launch(__half());
    case CONVT1D_BF16: return launch(__nv_bfloat16());
    case CONVT1D_F64: return launch(double());
    default: return cudaErrorInvalidValue;
    }
}

/* The layer's sizes (the callers have checked that they fit in int). */
void layer_args(const convt1d_problem &pr, dw_layer *a) {
    const convt1d_params &p = pr.p;
    a->rows = (int)(p.batch * p.groups);
    a->L = (int)p.in_length;
    a->L_out = (int)pr.out_length;
    a->groups = (int)p.groups;
    a->mult = (int)pr.cout_g;
    a->K = (int)p.kernel_size;
    a->s = (int)p.stride;
    a->pad = (int)p.padding;
    a->d = (int)p.dilation;
}

/* Tiles per block: a few waves of eight blocks per SM, the row's tiles split evenly. CONVT1D_DW_TPB=t forces t
 * tiles per block (tests: small layers otherwise never run a block over several tiles). */
void split_rows(int rows, int tiles, int *tpb, int *chunks) {
    const int sms = convt1d_sm_count() > 0 ? convt1d_sm_count() : 132;
    int64_t t = ((int64_t)rows * tiles) / ((int64_t)sms * 8 * 4);
    const char *ev = convt1d_env("CONVT1D_DW_TPB");
    if (ev && atoi(ev) > 0) t = atoi(ev);
    t = t < 1 ? 1 : (t > tiles ? tiles : t);
    *chunks = (int)((tiles + t - 1) / t);
    *tpb = (tiles + *chunks - 1) / *chunks;
}

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
    layer_args(pr, &a);
    a.tiles = (int)((pr.out_length + kTile - 1) / kTile);
    const int gg = convt1d_gcd(a.s, a.d);
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
    /* Beyond the device's opt-in limit (99 KB on sm_86/89) the launch would fail: decline to the direct kernel. */
    if (weights > kMaxWeights || smem > kMaxSmem || smem > convt1d_smem_optin()) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.window = (int)window;
    a.wpitch = (int)wpitch;
    a.async = ((uintptr_t)x & 15) == 0;
    split_rows(a.rows, a.tiles, &a.tpb, &a.chunks);
    if ((int64_t)a.rows * a.chunks > 0x7fffffffLL) return CONVT1D_ERROR_NOT_SUPPORTED;
    const cudaError_t e = with_dtype(pr.dtype, [&](auto t) {
        return launch<decltype(t)>(a, nt, smem, x, w, bias, y, stream);
    });
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "depthwise forward kernel: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

namespace {

/* The blocks, windows and shared memory of the depthwise gradients; x (grad_weight only, else null): its tile is
 * staged too. Pieces go by cp.async where grad_y / x are 16-byte aligned. */
convt1d_status bwd_setup(const convt1d_problem &pr, const void *grad_y, const void *x, dwb_args *out,
                         size_t *smem_out) {
    const bool with_x = x != nullptr;
    const convt1d_params &p = pr.p;
    if (pr.cin_g != 1 || p.batch == 0 || p.stride > 64 || p.kernel_size > 4096 || p.dilation > (1 << 16) ||
        p.padding > (1 << 28) || p.in_length > (1 << 28) || pr.out_length > (1 << 29) ||
        p.batch * p.groups > 0x7fffffffLL || pr.cout_g * p.kernel_size > kMaxWeights ||
        p.groups * pr.cout_g * p.kernel_size > 0x7fffffffLL) /* the reduce kernel's int weight index */
        return CONVT1D_ERROR_NOT_SUPPORTED;
    dwb_args a;
    layer_args(pr, &a);
    a.tiles = (a.L + kTileB - 1) / kTileB;
    const int64_t window = (int64_t)(kTileB - 1) * a.s + (int64_t)(a.K - 1) * a.d + 1;
    const size_t es = convt1d_dtype_size(pr.dtype), acc_bytes = pr.dtype == CONVT1D_F64 ? 8 : 4;
    const int64_t V = 16 / (int64_t)es, wpitch = (window + 2 * V - 2) / V * V; /* whole pieces from any offset */
    a.window = (int)window;
    a.wpitch = (int)wpitch;
    a.xpitch = with_x ? (int)((kTileB + 2 * V - 2) / V * V) : 0;
    a.async = ((uintptr_t)grad_y & 15) == 0;
    a.async_x = with_x && ((uintptr_t)x & 15) == 0;
    const size_t smem = 2 * ((size_t)wpitch + a.xpitch) * es +
                        (with_x ? (size_t)(kThreads / 32) * a.K : (size_t)a.mult * a.K) * acc_bytes;
    /* Long strides or taps (or a device that allows less): the direct kernels. */
    if (smem > 100 * 1024 || smem > convt1d_smem_optin()) return CONVT1D_ERROR_NOT_SUPPORTED;
    split_rows(a.rows, a.tiles, &a.tpb, &a.chunks);
    if ((int64_t)a.rows * a.chunks > 0x7fffffffLL) return CONVT1D_ERROR_NOT_SUPPORTED;
    *out = a;
    *smem_out = smem;
    return CONVT1D_SUCCESS;
}

} // namespace

convt1d_status convt1d_bwd_input_depthwise(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                           cudaStream_t stream) {
    dwb_args a;
    size_t smem = 0;
    convt1d_status st = bwd_setup(pr, grad_y, nullptr, &a, &smem);
    if (st != CONVT1D_SUCCESS) return st;
    const cudaError_t e = with_dtype(pr.dtype, [&](auto t) {
        return launch_bi_k<decltype(t)>(a, smem, grad_y, w, grad_x, stream);
    });
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "depthwise grad_input kernel: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_bwd_weight_depthwise(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                            cudaStream_t stream) {
    dwb_args a;
    size_t smem = 0;
    convt1d_status st = bwd_setup(pr, grad_y, x, &a, &smem);
    if (st != CONVT1D_SUCCESS) return st;
    const size_t acc_bytes = pr.dtype == CONVT1D_F64 ? 8 : 4;
    void *part = nullptr; /* [blocks][mult][K] partial sums */
    const size_t part_bytes = (size_t)a.rows * a.chunks * a.mult * a.K * acc_bytes;
    if (part_bytes > ((size_t)512 << 20)) return CONVT1D_ERROR_NOT_SUPPORTED; /* many long weights: the others' plans */
    if (cudaMallocAsync(&part, part_bytes, stream) != cudaSuccess) {
        (void)cudaGetLastError();
        return CONVT1D_ERROR_NOT_SUPPORTED; /* no room: the direct kernel's plan */
    }
    const cudaError_t e = with_dtype(pr.dtype, [&](auto t) {
        return launch_bw_k<decltype(t)>(a, smem, grad_y, x, part, grad_w, stream);
    });
    cudaFreeAsync(part, stream);
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "depthwise grad_weight kernel: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}
