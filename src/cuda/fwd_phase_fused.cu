/* Fused forward of narrow layers whose taps all land on one phase of y: every stride-1 layer, and strided
 * layers with the dilation a multiple of the stride (KernelBench 79; one_phase_problem, kernels.cuh). Phase r
 * of y is the stride-1 problem  yr[t] = sum_{ci,k} w[ci,co,k] x[t + pq - k*m], y[r + s*t] = yr[t] + bias, and
 * every other element of y is the bias. Such layers are pure bandwidth (KernelBench 79: 26 GFLOP for 1.3 GB),
 * so each element of x is read once and each element of y written once, in one launch:
 *
 *  - a block owns all C_out <= 64 output channels of BT = 128 or 256 consecutive phase positions t of one sample,
 *    i.e. the s*BT contiguous elements [s*t0, s*t0 + s*BT) of each y row (the other phases included);
 *  - the x window (all input channels, BT + (K-1)*m columns, from the 16-byte boundary below its first
 *    column) is staged in shared memory one tile ahead in 16-byte pieces (fp32: cp.async, double buffered,
 *    then tf32-rounded in place; 16-bit: through registers, to pair channels), in 32-bit words as
 *    fwd_tc_kernel.cuh lays them out, so each tap is a shifted view of the window;
 *  - the weights (C_in * K <= 96 in fp32, 128 in 16-bit) are loaded once per block into the warps' mma.sync
 *    A fragments, registers, for the whole persistent loop;
 *  - results + bias go into an output tile whose other elements hold the bias (filled once, again only when
 *    the rows' alignment changes), each row kept at its y row's offset from a 16-byte boundary (rows are
 *    rarely aligned: L_out is odd on KernelBench 79); the rows leave it as 16-byte vectors, or on sm_90 as
 *    one bulk copy each (16-bit and strict fp32: measured, run 105);
 *  - in TF32 each y row leaves between 128-byte boundaries, not at the span's edges: from the row's first
 *    boundary at or past s*t0 to the first one past s*(t0 + BT), so no 128-byte line of y is written by two
 *    blocks (the columns past the span come from extra n8 tiles: FusedArgs::xt). Where two blocks wrote parts of
 *    one line, the writes ran at ~2.3 TB/s; with whole lines at ~2.6 (run 235-237, docs/design.md, Session 22).
 * Measurements and the versions before this one: docs/design.md, Sessions 12 and 22.
 * The one-phase path it replaces (fwd_one_phase.cu) wrote phase r to scratch and scattered it in a second pass;
 * the general kernels multiply the empty phases' zero taps or store fragments s elements apart. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <type_traits>

#include "fwd_tc_kernel.cuh"
#include "kernels.cuh"
#include "persistent_launch.cuh"

namespace {

using namespace convt1d_tc;

constexpr int BM = 64;       /* output channels per block: all of the layer's */
/* The tile: BT = 128 or 256 phase positions (Geo below). Warps: 4 along the channels (16 each) x WN along the
 * positions (PW each, NT n8 tiles). BT = 128: 256 threads, two blocks per SM (one in split TF32). BT = 256: one
 * block per SM, 512 threads (256 in split TF32, whose A fragments take twice the registers: PW = 128 there). The
 * wider tile writes each y row in 2 KB pieces, not 1 KB: the writes of this kernel's pattern run at 2.2 TB/s with
 * 1 KB pieces, 2.4 with 2 KB (dev/cuda/store_probe79.cu, run 233/234), a fill at 3.3. */
template <int MODE, int BT> struct Geo {
    static constexpr int NTH = MODE == F32X3 ? 256 : 2 * BT;
    static constexpr int WN = NTH / 128;   /* warps along the positions */
    static constexpr int PW = BT / WN;     /* positions per warp */
    static constexpr int NT = PW / 8;      /* n8 tiles per warp */
    static constexpr int MINB = MODE == F32X3 || BT > 128 ? 1 : 2; /* blocks per SM */
};
/* Most k-steps (8 word rows x one tap each) held as A fragments: C_in*K <= 96 in fp32, <= 128 in 16-bit (whose
 * window staging registers would otherwise spill). */
template <int MODE> constexpr int ksteps_max() { return MODE >= F16 ? 8 : 12; }
constexpr int HALO = 32;     /* widest tap spread (K-1)*m */
constexpr int IT16 = 2;      /* 16-bit window items (8 positions x 2 channels) per thread in flight */

struct FusedArgs {
    const void *x, *w, *bias;
    void *y;
    int cin, cout, K, L_in, L_out;
    int s, r, pq, m; /* phase r of stride s; its stride-1 problem reads x[t + pq - k*m] */
    int cb, nks;     /* 8-word-row blocks of input channels; k-steps = cb * K */
    int nvr, nvr_magic; /* 16-byte vectors per window row (window start rounded down to a vector), and
                         * ceil(2^20 / nvr): v / nvr = (v * nvr_magic) >> 20 for the v < 2^12 used */
    int XP;          /* window row pitch in words (8 mod 32: conflict-free fragment loads) */
    int YP;          /* output tile row pitch in elements (s*BT plus two vectors) */
    /* Each staged row sits at its y row's offset from a pm-element boundary (pm: the elements of a 16-byte vector, or
     * of 128 bytes where rows go by bulk copies between 128-byte boundaries: the copies' source then lies on the same
     * 128-byte phase as their destination). */
    int pm;
    int y_mis;       /* y's element offset from a pm-element boundary */
    int lmod, clmod; /* L_out and C_out * L_out modulo pm */
    int bulk;        /* sm_90: rows leave the tile by bulk copies (the copy engine), not vector stores */
    /* Rows sent between 128-byte boundaries (Session 22): a tile sends each y row from the row's first 128-byte
     * boundary at or past its span (the row's start in its first tile) to the one past the next tile's start, so
     * no line is written by two blocks. The columns past its span come from xt more n8 tiles (positions BT + 8*wn,
     * warps wn < xt). xt = 0: each tile sends exactly its span. */
    int xt;
    int le, y_line, lmodl; /* elements per 128 bytes; y's element offset from a 128-byte boundary; L_out % le */
    int tiles_per_n, tiles;
};

template <int MODE> struct Out {
    using T = typename std::conditional<(MODE >= F16), unsigned short, float>::type;
    static constexpr int VE = 16 / (int)sizeof(T); /* elements per 16-byte vector */
    static __device__ __forceinline__ T cvt(float v) {
        if (MODE == F16) return __half_as_ushort(__float2half_rn(v));
        if (MODE == BF16) return __bfloat16_as_ushort(__float2bfloat16_rn(v));
        return v;
    }
};

/* Shared memory: the window(s) [2 (fp32: double-buffered copies) or 1][cb*8 word rows][XP], then the output
 * tile [BM][YP] in y's element type. */
template <int MODE, int BT>
__global__ void __launch_bounds__(Geo<MODE, BT>::NTH, Geo<MODE, BT>::MINB) fwd_phase_fused_kernel(const FusedArgs a) {
    constexpr int NTH = Geo<MODE, BT>::NTH, NT = Geo<MODE, BT>::NT, PW = Geo<MODE, BT>::PW;
    constexpr bool HALF = MODE >= F16;
    using T = typename Out<MODE>::T;
    constexpr int VE = Out<MODE>::VE;
    constexpr int XV = HALF ? 8 : 4; /* input positions per 16-byte load */
    extern __shared__ __align__(16) uint32_t smem[];
    const int rows = a.cb * 8, xwords = rows * a.XP, nitems = rows * a.nvr;
    uint32_t *xs0 = smem;
    T *yt = (T *)(smem + (HALF ? 1 : 2) * xwords);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, tq = lane & 3;
    const int wm = warp & 3, wn = warp >> 2;

    /* The warp's A fragments (rows wm*16 + g (+8), word rows tq (+4) of each k-step), for the whole loop. */
    constexpr int KS = ksteps_max<MODE>();
    uint32_t af[KS][4], al[MODE == F32X3 ? KS : 1][4];
    {
        int k = 0, cbi = 0;
#pragma unroll
        for (int ks = 0; ks < KS; ++ks) {
            if (ks < a.nks) {
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    uint32_t small;
                    af[ks][e] = fused_weight_word<MODE, true>(a.w, wm * 16 + g + (e & 1) * 8, cbi * 8 + tq + (e >> 1) * 4, k,
                                                              a.cin, a.cout, a.K, small);
                    if (MODE == F32X3) al[MODE == F32X3 ? ks : 0][e] = small;
                }
                if (++cbi == a.cb) {
                    cbi = 0;
                    ++k;
                }
            }
        }
    }
    /* The bias of the two rows whose results this thread writes. */
    const int co_a = wm * 16 + g, co_b = co_a + 8;
    const float bias_a = a.bias && co_a < a.cout ? load_bias<MODE>(a.bias, co_a) : 0.f;
    const float bias_b = a.bias && co_b < a.cout ? load_bias<MODE>(a.bias, co_b) : 0.f;

    /* Tile -> sample n, first phase position t0, and the window: input positions from la (a multiple of
     * XV, so that L_in % XV == 0 makes every 16-byte piece wholly inside or outside x), the first useful
     * one xoff columns in. */
    auto window = [&](int tile, int &n, int &t0, int &la, int &xoff) {
        n = tile / a.tiles_per_n;
        t0 = (tile - n * a.tiles_per_n) * BT;
        const int lw0 = t0 + a.pq - (a.K - 1) * a.m;
        la = lw0 & ~(XV - 1);
        xoff = lw0 - la;
    };
    /* fp32: one 16-byte copy per (row, vector), zero-filled outside x and past C_in. */
    auto issue32 = [&](int tile, uint32_t *xs) {
        int n, t0, la, xoff;
        window(tile, n, t0, la, xoff);
        const float *xn = (const float *)a.x + (int64_t)n * a.cin * a.L_in;
        for (int v = tid; v < nitems; v += NTH) {
            const int row = (v * a.nvr_magic) >> 20, c = v - row * a.nvr, l = la + c * 4;
            const bool ok = row < a.cin && l >= 0 && l < a.L_in;
            cp_async16z(smem_u32(xs + row * a.XP + c * 4), ok ? xn + (int64_t)row * a.L_in + l : xn, ok);
        }
    };
    /* 16-bit: per item, 8 positions of channels 2*row and 2*row+1 (two 16-byte loads) into registers; stored
     * by store16 as 8 words (channel pairs). */
    uint4 xa[HALF ? IT16 : 1], xb[HALF ? IT16 : 1];
    auto load16 = [&](int tile) {
        int n, t0, la, xoff;
        window(tile, n, t0, la, xoff);
        const unsigned short *xn = (const unsigned short *)a.x + (int64_t)n * a.cin * a.L_in;
#pragma unroll
        for (int i = 0; i < (HALF ? IT16 : 1); ++i) {
            const int v = tid + i * NTH;
            const int row = (v * a.nvr_magic) >> 20, c = v - row * a.nvr, l = la + c * 8;
            const bool in = v < nitems && l >= 0 && l < a.L_in;
            const unsigned short *p = xn + (int64_t)(2 * row) * a.L_in + l;
            xa[i] = in && 2 * row < a.cin ? __ldg((const uint4 *)p) : make_uint4(0, 0, 0, 0);
            xb[i] = in && 2 * row + 1 < a.cin ? __ldg((const uint4 *)(p + a.L_in)) : make_uint4(0, 0, 0, 0);
        }
    };
    auto store16 = [&](uint32_t *xs) {
#pragma unroll
        for (int i = 0; i < (HALF ? IT16 : 1); ++i) {
            const int v = tid + i * NTH;
            if (v >= nitems) break;
            const int row = (v * a.nvr_magic) >> 20, c = v - row * a.nvr;
            const uint32_t e[4] = {xa[i].x, xa[i].y, xa[i].z, xa[i].w}, o[4] = {xb[i].x, xb[i].y, xb[i].z, xb[i].w};
            uint4 *d = (uint4 *)(xs + row * a.XP + c * 8);
            d[0] = make_uint4(__byte_perm(e[0], o[0], 0x5410), __byte_perm(e[0], o[0], 0x7632), __byte_perm(e[1], o[1], 0x5410),
                              __byte_perm(e[1], o[1], 0x7632));
            d[1] = make_uint4(__byte_perm(e[2], o[2], 0x5410), __byte_perm(e[2], o[2], 0x7632), __byte_perm(e[3], o[3], 0x5410),
                              __byte_perm(e[3], o[3], 0x7632));
        }
    };
    /* Output row co of sample n starts pad(co) elements past a 16-byte boundary: the tile keeps each row at
     * that offset, so whole vectors of y are whole vectors of the tile. pad depends on n only through sig. */
    const int64_t rowlen = a.L_out;
    auto pad_of = [&](int sig, int co) { return (sig + co * a.lmod) & (a.pm - 1); };
    /* Elements of the tile that no phase position reaches hold the bias: filled whenever the row offsets change. */
    auto fill_bias = [&](int sig) {
        const int vpr = a.YP / VE; /* vectors per tile row */
        for (int v = tid; v < BM * vpr; v += NTH) {
            const int co = v / vpr;
            union {
                uint4 u;
                T e[VE];
            } f;
            const T b = Out<MODE>::cvt(a.bias && co < a.cout ? load_bias<MODE>(a.bias, co) : 0.f);
#pragma unroll
            for (int e = 0; e < VE; ++e) f.e[e] = b;
            *(uint4 *)(yt + v * VE) = f.u;
        }
    };

    int tile = blockIdx.x;
    if (tile >= a.tiles) return;
    if (HALF) {
        load16(tile);
        store16(xs0);
    } else {
        issue32(tile, xs0);
        cp_async_commit();
    }
    int sig = -1;
    for (int it = 0; tile < a.tiles; ++it, tile += gridDim.x) {
        const int next = tile + gridDim.x;
        int n, t0, la, xoff;
        window(tile, n, t0, la, xoff);
        uint32_t *xs = HALF ? xs0 : xs0 + (it & 1) * xwords;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        /* The last tile's bulk copies must have read the tile before anything writes it (barrier below). */
        if (a.bulk && lane == 0) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
        const int nsig = (a.y_mis + n * a.clmod) & (a.pm - 1);
        if (nsig != sig) { /* block-uniform */
            __syncthreads(); /* the last tile's rows are out */
            fill_bias(nsig);
            sig = nsig;
        }
        if (HALF) {
            if (next < a.tiles) load16(next); /* in flight during the tile's math and stores */
        } else {
            if (next < a.tiles) issue32(next, xs0 + ((it + 1) & 1) * xwords);
            cp_async_commit();
            cp_async_wait<1>();
            if (MODE == TF32) /* round this thread's own pieces of the landed window */
                for (int v = tid; v < nitems; v += NTH) {
                    const int row = (v * a.nvr_magic) >> 20, c = v - row * a.nvr;
                    uint4 *q = (uint4 *)(xs + row * a.XP + c * 4);
                    uint4 u = *q;
                    *q = make_uint4(tf32_rn(u.x), tf32_rn(u.y), tf32_rn(u.z), tf32_rn(u.w));
                }
        }
        __syncthreads(); /* window landed (and rounded); bias fill done; last tile's rows are out */

        /* The tile's GEMM: 64 channels x 128 positions x (C_in x K); tap k reads the window shifted by
         * xoff + (K-1-k)*m columns. */
        float acc[NT][4];
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[nt][e] = 0.f;
        {
            constexpr int KS = ksteps_max<MODE>();
            const uint32_t *xb0 = xs + tq * a.XP + xoff + wn * PW + g;
            int k = 0, cbi = 0;
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) {
                if (ks < a.nks) {
                    const uint32_t *p = xb0 + cbi * 8 * a.XP + (a.K - 1 - k) * a.m;
#pragma unroll
                    for (int nt = 0; nt < NT; ++nt) {
                        uint32_t b[2] = {p[nt * 8], p[4 * a.XP + nt * 8]};
                        fused_mma<MODE, false>(acc[nt], af[ks], al[MODE == F32X3 ? ks : 0], b);
                    }
                    if (++cbi == a.cb) {
                        cbi = 0;
                        ++k;
                    }
                }
            }
        }
        /* Results + bias into the tile: phase position t is element r + s*t of the span. */
        {
            T *ra = yt + co_a * a.YP + pad_of(sig, co_a) + a.r, *rb = yt + co_b * a.YP + pad_of(sig, co_b) + a.r;
            auto put = [&](const float (&c)[4], int t) {
                const int j = t * a.s;
                ra[j] = Out<MODE>::cvt(c[0] + bias_a);
                ra[j + a.s] = Out<MODE>::cvt(c[1] + bias_a);
                rb[j] = Out<MODE>::cvt(c[2] + bias_b);
                rb[j + a.s] = Out<MODE>::cvt(c[3] + bias_b);
            };
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) put(acc[nt], wn * PW + nt * 8 + 2 * tq);
            if (wn < a.xt) { /* warp-uniform: the n8 tile past the span, positions BT + 8*wn */
                constexpr int KS = ksteps_max<MODE>();
                float ex[4] = {0.f, 0.f, 0.f, 0.f};
                const uint32_t *xe0 = xs + tq * a.XP + xoff + BT + wn * 8 + g;
                int k = 0, cbi = 0;
#pragma unroll
                for (int ks = 0; ks < KS; ++ks) {
                    if (ks < a.nks) {
                        const uint32_t *p = xe0 + cbi * 8 * a.XP + (a.K - 1 - k) * a.m;
                        uint32_t b[2] = {p[0], p[4 * a.XP]};
                        fused_mma<MODE, false>(ex, af[ks], al[MODE == F32X3 ? ks : 0], b);
                        if (++cbi == a.cb) {
                            cbi = 0;
                            ++k;
                        }
                    }
                }
                put(ex, BT + wn * 8 + 2 * tq);
            }
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        if (a.bulk) asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); /* visible to the copy engine */
#endif
        __syncthreads(); /* tile complete; every warp is done with the window */
        if (HALF && next < a.tiles) store16(xs0);

        /* y rows: elements [s*t0 + lo, s*t0 + hi) of each (xt = 0: the span [s*t0, s*t0 + s*BT); else between
         * 128-byte boundaries, xt above), as 16-byte vectors from the first aligned one, the few before it and
         * after the last whole vector one by one. s*t0 is a multiple of le (and VE). */
        const int span_lo = a.s * t0, rest = a.L_out - span_lo;
#pragma unroll 2
        for (int co = warp; co < a.cout; co += NTH / 32) {
            const int pad = pad_of(sig, co);
            int lo = 0, hi = min(a.s * BT, rest);
            if (a.xt) {
                const int64_t rowi = (int64_t)n * a.cout + co;
                const int d = (a.le - (int)((a.y_line + rowi * a.lmodl) % a.le)) % a.le; /* first line-aligned column */
                lo = t0 == 0 ? 0 : d;
                hi = min(a.s * BT + d, rest);
                if (hi <= lo) continue; /* the row ended in the previous tile */
            }
            const int len = hi - lo, head = min(len, (VE - ((pad + lo) & (VE - 1))) % VE);
            const int nv = (len - head) / VE, tail0 = head + nv * VE;
            const T *src = yt + co * a.YP + pad + lo;
            T *dst = (T *)a.y + ((int64_t)n * a.cout + co) * rowlen + span_lo + lo;
            if (lane < head) dst[lane] = src[lane];
            if (lane < len - tail0) dst[tail0 + lane] = src[tail0 + lane];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
            if (a.bulk) {
                if (lane == 0 && nv > 0)
                    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst + head),
                                 "r"(smem_u32(src + head)), "r"(nv * 16)
                                 : "memory");
                continue;
            }
#endif
            for (int v = lane; v < nv; v += 32) *(uint4 *)(dst + head + v * VE) = *(const uint4 *)(src + head + v * VE);
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        if (a.bulk && lane == 0) asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
    }
    if (!HALF) cp_async_wait<0>();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (a.bulk && lane == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

template <int MODE, int BT> convt1d_status launch(const FusedArgs &a, size_t smem, cudaStream_t stream) {
    static thread_local convt1d_persistent_cache cache;
    return convt1d_launch_persistent(fwd_phase_fused_kernel<MODE, BT>, cache, a, a.tiles, Geo<MODE, BT>::NTH, smem, stream,
                                     "forward (fused one phase): launch");
}
template <int MODE> convt1d_status launch(const FusedArgs &a, int bt, size_t smem, cudaStream_t stream) {
    return bt == 256 ? launch<MODE, 256>(a, smem, stream) : launch<MODE, 128>(a, smem, stream);
}

/* The output tile's row pitch where rows leave by vector stores: s*BT plus two vectors at least, and among the next
 * eight vector multiples the one whose result stores (each warp: 8 rows x 4 column pairs, s elements apart, rows at
 * their y offsets pad_of) meet the fewest shared-memory bank conflicts, counted for every row offset pattern (sig) and
 * warp. KernelBench 79 TF32 (L_out odd): 264 elements put rows g and g + 4 on one bank, two wavefronts per store; 268
 * none: 0.472 -> 0.468 ms (run 158). Rows sent by bulk copies keep the least pitch: there the bf16 pick (280 for 272)
 * ran at 0.68-0.74 ms against 0.33 (run 158; the copies' shared-memory source alignment, not pursued).
 * CONVT1D_FUSED_YP=0 keeps the least pitch (A/B). */
int tile_pitch(const FusedArgs &a, int cols, int es, int ve, int max_pitch) {
    const int base = a.s * cols + 2 * ve;
    const char *ev = convt1d_env("CONVT1D_FUSED_YP");
    if (ev && ev[0] == '0') return base;
    /* The count below takes ~0.3 ms of host time (run 159: exposed in synchronized per-call timing): once per layer. */
    static thread_local int key[7] = {-1, -1, -1, -1, -1, -1, -1}, cached = 0;
    const int k6[7] = {es, ve, a.s, a.r, a.lmod, max_pitch, cols};
    if (memcmp(key, k6, sizeof(k6)) == 0) return cached;
    int best = base;
    long best_cost = -1;
    for (int k = 0; k < 8 && (k == 0 || base + k * ve <= max_pitch); ++k) {
        const int yp = base + k * ve;
        long cost = 0;
        for (int sig = 0; sig < ve; ++sig)
            for (int wm = 0; wm < 4; ++wm)
                for (int kind = 0; kind < 4; ++kind) { /* ra[j], ra[j + s], rb[j], rb[j + s] */
                    int words[32], cnt[32] = {0};
                    for (int lane = 0; lane < 32; ++lane) {
                        const int g = lane >> 2, tq = lane & 3, co = wm * 16 + g + (kind >> 1) * 8;
                        const int e = co * yp + ((sig + co * a.lmod) & (ve - 1)) + a.r + (2 * tq + (kind & 1)) * a.s;
                        words[lane] = e * es / 4;
                    }
                    for (int lane = 0; lane < 32; ++lane) { /* distinct words per bank */
                        bool seen = false;
                        for (int o = 0; o < lane && !seen; ++o) seen = words[o] == words[lane];
                        if (!seen) ++cnt[words[lane] % 32];
                    }
                    int worst = 0;
                    for (int b = 0; b < 32; ++b) worst = cnt[b] > worst ? cnt[b] : worst;
                    cost += worst;
                }
        if (best_cost < 0 || cost < best_cost) best = yp, best_cost = cost;
    }
    memcpy(key, k6, sizeof(k6));
    cached = best;
    return best;
}

} // namespace

convt1d_status convt1d_fwd_phase_fused(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                       void *y, cudaStream_t stream) {
    /* CONVT1D_FWD_FUSED=0 off, 1 on wherever it applies; unset: where measured to gain (below). */
    const char *ev = convt1d_env("CONVT1D_FWD_FUSED");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    if (env == 0 || pr.dtype == CONVT1D_F64 || pr.w_adjoint || P.groups != 1 || P.out_channels > BM ||
        convt1d_sm_major() < 8)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    FusedArgs a;
    one_phase_view v;
    if (!phase_view(pr, &v)) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.s = (int)v.s, a.r = (int)v.r, a.pq = (int)-v.c, a.m = (int)v.m; /* its stride-1 problem's padding */
    /* Stride 1 stays on the general kernels until measured here; small outputs are latency-bound, where
     * the previous one-phase path won (run 104, kernelbench_79_small: 15 vs 10 us per call). */
    if (env < 0 && (P.stride == 1 || P.batch * P.out_channels * pr.out_length < ((int64_t)1 << 22)))
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const bool half = pr.dtype != CONVT1D_F32;
    const int es = half ? 2 : 4, xv = 16 / es;
    const int64_t halo = (P.kernel_size - 1) * (int64_t)a.m;
    const int64_t cb = (P.in_channels + (half ? 15 : 7)) / (half ? 16 : 8);
    if (halo > HALO || cb * P.kernel_size > (half ? ksteps_max<F16>() : ksteps_max<TF32>())) return CONVT1D_ERROR_NOT_SUPPORTED;
    /* The window is staged in 16-byte pieces: x's rows must start on 16-byte boundaries. */
    if (P.in_length % xv != 0 || ((uintptr_t)x & 15) != 0 || ((uintptr_t)y % es) != 0) return CONVT1D_ERROR_NOT_SUPPORTED;
    const bool strict = !half && pr.math == CONVT1D_MATH_STRICT_FP32;
    a.x = x, a.w = w, a.bias = bias, a.y = y;
    a.cin = (int)P.in_channels, a.cout = (int)P.out_channels, a.K = (int)P.kernel_size;
    a.L_in = (int)P.in_length, a.L_out = (int)pr.out_length;
    a.cb = (int)cb, a.nks = (int)(cb * P.kernel_size);
    {
        /* Bulk copies pay where fewer warps are left to store (strict fp32: one block per SM) and in 16-bit;
         * TF32 loses (run 105, KernelBench 79, ms, bulk / vector stores: TF32 0.521 / 0.472, strict 0.838 /
         * 0.856, bf16 0.332 / 0.337). CONVT1D_FUSED_BULK=0/1 forces either (A/B). */
        const char *eb = convt1d_env("CONVT1D_FUSED_BULK");
        const bool want = eb && eb[0] ? eb[0] != '0' : !(pr.dtype == CONVT1D_F32 && !strict);
        a.bulk = convt1d_sm_major() >= 9 && want;
    }
    const int rows = a.cb * 8;
    a.le = 128 / es;
    a.y_line = (int)(((uintptr_t)y / es) % a.le);
    a.lmodl = (int)(pr.out_length % a.le);
    /* Rows between 128-byte boundaries (xt in FusedArgs) in TF32 at stride >= 2, wherever that layout fits. KernelBench
     * 79, ms, line / not (run 237): TF32 0.520 / 0.585 (run 235's store probe of its traffic: 0.515 / 0.575); 16-bit
     * loses, 0.36-0.40 / 0.313 whether by bulk copies or vector stores, and split TF32 0.800 / 0.707 (its extra n8 tiles
     * cost a k-loop of three MMAs each); at stride 1 TF32 loses too (run 241, KernelBench 74 with 3 taps, forced: 0.953 /
     * 0.728). CONVT1D_FUSED_LINE=0/1: never / in every mode and stride (A/B, tests); CONVT1D_FUSED_LPAD=0: the staged
     * rows on a vector's phase only (pm) with bulk copies too (A/B). Not on the H200 (convt1d_dram_rich), where the partial
     * lines cost less than the extra MMAs (run 379, KernelBench 79 TF32, ms, line / not: 0.505 / 0.468; run 165's H200
     * record, before the lines, 0.467). */
    const char *el = convt1d_env("CONVT1D_FUSED_LINE"), *ep = convt1d_env("CONVT1D_FUSED_LPAD");
    const bool line = el && el[0] ? el[0] != '0' : !half && !strict && P.stride > 1 && !convt1d_dram_rich(), lpad = !(ep && ep[0] == '0');
    /* The layout of a tile of bt phase positions (Geo), its rows sent between 128-byte boundaries or not (line; xt in
     * FusedArgs): window, output tile pitch, tiles; 0 where it cannot run. */
    auto layout = [&](int bt, bool ln, FusedArgs &t) -> size_t {
        const int nth = strict ? 256 : 2 * bt;
        /* columns up to le - 1 past the span: ceil((le - 1) / s) positions, in n8 tiles, one per warp along positions */
        t.xt = ln ? ((t.le - 1 + t.s - 1) / t.s + 7) / 8 : 0;
        if (t.xt > nth / 128) return 0;
        const int cols = bt + 8 * t.xt; /* positions computed per tile */
        t.pm = ln && t.bulk && lpad ? t.le : xv;
        t.y_mis = (int)(((uintptr_t)y / es) % t.pm);
        t.lmod = (int)(pr.out_length % t.pm);
        t.clmod = (int)((P.out_channels * pr.out_length) % t.pm);
        const int64_t tiles_per_n = (pr.out_length + t.s * (int64_t)bt - 1) / (t.s * (int64_t)bt);
        if (P.in_length + cols + HALO >= INT_MAX / 2 || pr.out_length + t.s * (int64_t)cols >= INT_MAX / 2 ||
            P.padding >= INT_MAX / 4 || P.batch * tiles_per_n >= INT_MAX / 2)
            return 0;
        t.tiles_per_n = (int)tiles_per_n, t.tiles = (int)(P.batch * tiles_per_n);
        t.nvr = (int)((cols + halo + 2 * xv - 2) / xv); /* window columns cols + halo, plus up to xv-1 of alignment */
        t.nvr_magic = ((1 << 20) + t.nvr - 1) / t.nvr;
        t.XP = (t.nvr * xv - 8 + 31) / 32 * 32 + 8;
        if (half && rows * t.nvr > nth * IT16) return 0;
        /* a wider pitch only while the blocks per SM stay (two at bt = 128 but in strict fp32: 228 KB per SM, 1 KB each
         * reserved) */
        const long win_bytes = (long)(half ? 1 : 2) * rows * t.XP * 4;
        const long cap = strict || bt > 128 ? 227 * 1024 : 113 * 1024;
        const int least = t.pm > xv ? (t.s * cols + 2 * t.pm - 1) / t.pm * t.pm : t.s * cols + 2 * xv; /* pitch */
        if (ln && win_bytes + (long)BM * least * es > cap) return 0; /* not at the cost of a block per SM */
        t.YP = t.bulk ? least : tile_pitch(t, cols, es, xv, (int)((cap - win_bytes) / (BM * es)));
        const size_t smem = (size_t)(half ? 1 : 2) * rows * t.XP * 4 + (size_t)BM * t.YP * es;
        return smem <= convt1d_smem_optin() ? smem : 0;
    };
    auto layout_any = [&](int bt, FusedArgs &t) -> size_t {
        const size_t sm = line ? layout(bt, true, t) : 0;
        return sm ? sm : layout(bt, false, t);
    };
    /* 256 phase positions per tile wherever that layout fits and its grid (one block per SM) fills the SMs twice: each
     * y row then leaves in 2 KB pieces (Geo; run 234, KernelBench 79, ms, 256 / 128: TF32 0.587 / 0.639, fp16 0.316 /
     * 0.336, bf16 0.317 / 0.336, split TF32 0.702 / 0.823); else 128. CONVT1D_FUSED_BT=128/256 forces either (256 only
     * where it fits). */
    int bt = 256;
    size_t smem = 0;
    {
        const char *eb = convt1d_env("CONVT1D_FUSED_BT");
        const int want = eb && eb[0] ? (atoi(eb) == 256 ? 256 : 128) : 0;
        FusedArgs t = a;
        const int64_t sms = convt1d_sm_count() > 0 ? convt1d_sm_count() : 132;
        const int64_t tiles256 = P.batch * ((pr.out_length + 256 * (int64_t)a.s - 1) / (256 * (int64_t)a.s));
        /* The grid test before the layout: the layout counts the output tile's bank conflicts (tile_pitch, cached for
         * one layer at a time), so a layout made and then dropped would recount both tiles' pitches at every call. */
        smem = want == 128 || (want != 256 && tiles256 < 2 * sms) ? 0 : layout_any(256, t);
        if (smem) {
            a = t;
        } else {
            smem = layout_any(128, a), bt = 128;
            if (!smem) return CONVT1D_ERROR_NOT_SUPPORTED;
        }
    }
    switch (pr.dtype) {
    case CONVT1D_F16: return launch<F16>(a, bt, smem, stream);
    case CONVT1D_BF16: return launch<BF16>(a, bt, smem, stream);
    default: return strict ? launch<F32X3>(a, bt, smem, stream) : launch<TF32>(a, bt, smem, stream);
    }
}
