/* Hopper grad_weight at strides 1..4 (fp16, bf16, fp32 as TF32; groups > 1 one launch per group on the group's views,
 * rs_run_groups): wgmma with grad_y in registers.
 *
 *   grad_w[ci, co, k] = sum_n sum_l x[n, ci, l] * gy[n, co, l*s - p + k*d]
 *
 * Per tap k a GEMM D_k[co][ci] (M = C_out, N = C_in) reduced over (n, l). x is the B operand, K-major
 * (l contiguous), brought by TMA boxes with the 128-byte swizzle and never shifted; grad_y is the A
 * operand, read from shared memory into registers, where a tap's shift k*d and the stride's step between
 * columns are only address arithmetic: one
 * staged window of grad_y, [co][l0*s - p + k0*d, + s * the stage's positions + halo), serves every tap of the
 * block and nothing is copied in global memory (the strided kernel, bwd_weight_wgmma.cu, writes shifted
 * copies of x: at stride 1 they would triple KernelBench 64's traffic). grad_y rows need not be 16-byte
 * aligned (KernelBench 64: L_out = 65538): the rows of one 16-byte residue come by one TMA box over a map
 * of row groups whose pitch is a 16-byte multiple (RsBwArgs::gtma, Session 18; before, each producer thread
 * sent one row's window as a bulk copy of the 16-byte-aligned span around it), and the consumers read the
 * window at that row's offset (0..15 bytes). 4-byte cp.async, which first staged every chunk, moved ~0.45 words per clock per SM
 * (run 62: KernelBench 64 TF32 11 ms); it remains for the chunks at a row's ends, where it zero-fills
 * what lies outside the row.
 *
 * Block: a producer warpgroup and two consumer warpgroups of 64 output channels each (R = 128), or, when
 * C_out <= 64, both on the same 64 taking alternate stages (R = 64); x BN input channels x NK taps
 * (more taps take more blocks). The reduction over (n, 128-byte chunks of l) is cut into a fixed
 * number of splits; each (split, warpgroup of an R = 64 block) writes its fp32 partial D_k tiles to its
 * own workspace slot and a second kernel sums the slots in order: bitwise deterministic, no atomics. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <type_traits>

#include "kernels.cuh"
#include "wgmma_common.cuh"

namespace {

constexpr int kThreads = 3 * 128; /* two consumer warpgroups, then the producer warpgroup */
constexpr int kMaxHalo = 256;      /* staged positions beyond the chunk for the taps' shifts */

struct RsBwArgs {
    float *ws;            /* partials [slots][K][cout][cin] */
    const void *gy;
    int cin, cout, K, s, d, p, L_out;
    int tgroups;          /* blocks along the taps (NK each) */
    int ci_tiles, co_tiles;
    int R;                /* output channels per block: 128 (one 64-row tile per warpgroup) or 64 (alternate stages) */
    int cps;              /* 128-byte chunks of positions per stage (1 or 2: one x box each) */
    int qchunks;          /* stages' worth of positions per sample */
    int64_t total;        /* N * qchunks: the flat reduction */
    int splits;
    int stages, sb, xb;   /* stage count and bytes; the x box (at the stage's start, 1024-aligned) */
    int pw, ww;           /* grad_y window: row pitch and words staged per row by cp.async (4-byte words) */
    int win;              /* window elements: the chunk's positions + the taps' halo */
    uintptr_t gy_addr;    /* grad_y's address (the bulk spans' offsets) */
    /* grad_y rows by residue (1: in order): bulk-copied rows sit at their address mod 16 in the stage, and
     * rows co, co + 1 differ by L_out*es (mod 16), so rows of one warp's A fragments (8 consecutive rows)
     * sat at two or four offsets: 2-way bank conflicts on every A load. Row co of the block goes to stage
     * slot (co % xg) * R/xg + co / xg (xg = 16 / gcd(L_out*es, 16)), so a warp's 16 slots hold rows of one
     * residue: one offset per warp. Its accumulator rows are then those rows (rs_slot_co). xg and R are
     * powers of two: xgl = log2(xg), gl = log2(R/xg) (shifts, not divisions, in the producer's loop). */
    int xg, xgl, gl;
    /* Interior chunks' grad_y windows by TMA instead of one bulk copy per row (Session 18; CONVT1D_WGMMA_BW_RS_TMA=0:
     * the bulk copies): a map over groups of xg rows (their pitch a 16-byte multiple), one box of R/xg rows per
     * residue group, started at the 16-byte column at or below the window (the rows land at their address mod
     * 16, as the bulk copies put them: the consumers are unchanged); box width = the row pitch pw. Run 183 (ms,
     * TMA / bulk): KernelBench 64 TF32 1.881 / 2.276, KernelBench 74 TF32 0.584 / 0.741, hifigan_up3 TF32
     * 0.917 / 1.698, bf16 0.541 / 0.837, hifigan_up4 bf16 0.509 / 0.823. */
    int gtma;
    int bar_off;
    /* A group's view (groups > 1, Session 24: one launch per group, grad_y and x offset to the group's first channel):
     * grad_y rows per sample, read only by the VIEW instantiations (the groups-1 kernels keep cout there). */
    int gn;
};

/* Stage slot of the block's grad_y row co, and the row in slot r (RsBwArgs::xg). */
__device__ __forceinline__ int rs_co_slot(int co, const RsBwArgs &a) { return ((co & (a.xg - 1)) << a.gl) + (co >> a.xgl); }
__device__ __forceinline__ int rs_slot_co(int r, const RsBwArgs &a) { return ((r & ((1 << a.gl) - 1)) << a.xgl) + (r >> a.gl); }

template <int TY, int BN, int NK, bool VIEW>
__global__ void __launch_bounds__(kThreads, 1)
    bwd_weight_rs_kernel(const __grid_constant__ CUtensorMap tmx, const __grid_constant__ CUtensorMap tmg, RsBwArgs a) {
#if CONVT1D_WG_DEVICE
    typedef wg_type<TY> E;
    typedef typename E::T T;
    constexpr bool HALF = sizeof(T) == 2;
    constexpr int kBK = kRow / (int)sizeof(T); /* positions per 128-byte chunk (one x box) */
    constexpr int EW = 4 / (int)sizeof(T);     /* elements per staged word */
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char *sm = (unsigned char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = smem_addr(sm);
    const uint32_t full0 = sbase + a.bar_off, empty0 = full0 + a.stages * 8;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    int bx = blockIdx.x;
    const int ci0 = (bx % a.ci_tiles) * BN;
    bx /= a.ci_tiles;
    const int co0 = (bx % a.co_tiles) * a.R;
    const int k0 = (bx / a.co_tiles) * NK; /* taps k0 .. k0 + NK - 1; those past K computed, not stored */
    const int sp = blockIdx.y;
    const int64_t f0 = a.total * sp / a.splits, f1 = a.total * (sp + 1) / a.splits;
    const int iters = (int)(f1 - f0);
    const bool alt = a.R == 64; /* the two consumer warpgroups take alternate stages of the same rows */
    /* Window start of the chunk at l0: l0*s - p + k0*d, lowered to an even element for 16-bit (whole words;
     * L_out is even, so every row starts on a word); gsh is the same for every chunk (l0 is even). */
    const int e_off = k0 * a.d - a.p;
    const int gsh = HALF ? (e_off & 1) : 0;
    /* A chunk whose window starts e0 = l0*s + e_off lies inside its row with 16 bytes to spare at both ends
     * goes by bulk copies (the aligned span never leaves the tensor); else by cp.async with zero fill. */
    auto by_bulk = [&](int l0) {
        const int64_t e0 = (int64_t)l0 * a.s + e_off;
        return e0 >= 16 / (int)sizeof(T) && e0 + a.win + 16 / (int)sizeof(T) <= a.L_out;
    };

    if (tid == 0) {
        for (int s = 0; s < a.stages; ++s) {
            mbar_init(full0 + 8 * s, 1 + 128);     /* the x box's expect_tx, and one arrival per producer thread */
            mbar_init(empty0 + 8 * s, alt ? 4 : 8); /* the consumer warps of the stage */
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (warp >= 8) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 56;" ::: "memory");
        /* Producer: stage it = reduction chunk f0 + it: the x box (TMA) and the grad_y window (4-byte
         * cp.async, warp pw taking rows pw, pw + 4, ...; zero outside the row or past C_out). */
        const int ptid = tid - 256, pwarp = ptid >> 5;
        if (ptid == 0) asm volatile("prefetch.tensormap [%0];" ::"l"(&tmx) : "memory");
        if (ptid == 0 && a.gtma) asm volatile("prefetch.tensormap [%0];" ::"l"(&tmg) : "memory");
        const T *gy = static_cast<const T *>(a.gy);
        const int rows = min(a.R, a.cout - co0);
        const int myslot = rs_co_slot(ptid, a); /* the stage slot of this thread's bulk-copied row */
        /* Two instantiations of the stage loop (grad_y windows by TMA boxes or by bulk copies), so that the
         * bulk-copy loop keeps its registers (the producer runs at 56): one loop holding both spilled in TF32. */
        auto produce = [&](auto tma_const) {
            constexpr bool TMAG = decltype(tma_const)::value;
            for (int it = 0; it < iters; ++it) {
                const int s = it % a.stages;
                if (it >= a.stages) mbar_wait(empty0 + 8 * s, ((it / a.stages) + 1) & 1);
                const int64_t f = f0 + it;
                const int n = (int)(f / a.qchunks), l0 = (int)(f - (int64_t)n * a.qchunks) * kBK * a.cps;
                const uint32_t st = sbase + s * a.sb, bar = full0 + 8 * s;
                if (ptid == 0) {
                    mbar_expect_tx(bar, (uint32_t)a.xb * a.cps);
                    for (int c = 0; c < a.cps; ++c) tma_load_3d(st + c * a.xb, &tmx, bar, l0 + c * kBK, ci0, n);
                }
                const T *g0 = gy + ((int64_t)n * (VIEW ? a.gn : a.cout) + co0) * a.L_out;
                if (by_bulk(l0)) {
                    if constexpr (TMAG) {
                        /* One box per residue group m (rows co0 + m + xg*j), its expect_tx thread 0's arrival; the
                         * others arrive plainly (the barrier counts one arrival per producer thread). */
                        if (ptid == 0) {
                            const uint32_t gb = (uint32_t)((a.R >> a.xgl) * a.pw * 4);
                            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(gb * a.xg) : "memory");
                            /* group m's window starts m*L_out + l0*s + e_off (> 0); its box at the 16-byte column below */
                            int e = l0 * a.s + e_off;
                            uint32_t dst = st + a.cps * a.xb;
                            for (int m = 0; m < a.xg; ++m, e += a.L_out, dst += gb)
                                tma_load_3d(dst, &tmg, bar, e & -(16 / (int)sizeof(T)), co0 >> a.xgl, n);
                        } else {
                            mbar_arrive(bar);
                        }
                        continue;
                    }
                    /* Thread r: row r's span [window start rounded down to 16 bytes, its end rounded up). */
                    uint32_t bytes = 0;
                    const char *src = nullptr;
                    if (ptid < rows) {
                        const char *w0 = reinterpret_cast<const char *>(g0 + (int64_t)ptid * a.L_out + (int64_t)l0 * a.s + e_off);
                        const int dl = (int)((uintptr_t)w0 & 15);
                        src = w0 - dl;
                        bytes = (uint32_t)((dl + a.win * (int)sizeof(T) + 15) & ~15);
                    }
                    /* Each thread its own expect_tx + arrival: one per warp (a shuffle sum, then a 32-count
                     * arrival) measured 8-13% slower (run 64). */
                    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
                    if (bytes)
                        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                                         st + a.cps * a.xb + myslot * a.pw * 4),
                                     "l"(src), "r"(bytes), "r"(bar)
                                     : "memory");
                    continue;
                }
                const int64_t e0 = (int64_t)l0 * a.s + e_off - gsh;
                for (int r = pwarp; r < rows; r += 4) {
                    const T *grow = g0 + (int64_t)r * a.L_out;
                    const uint32_t drow = st + a.cps * a.xb + rs_co_slot(r, a) * a.pw * 4;
                    for (int wd = lane; wd < a.ww; wd += 32) {
                        const int64_t e = e0 + wd * EW;
                        const bool ok = e >= 0 && e < a.L_out;
                        const T *src = ok ? grow + e : gy;
                        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(drow + wd * 4), "l"(src),
                                     "r"(ok ? 4 : 0)
                                     : "memory");
                    }
                }
                asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
            }
        };
        if (a.gtma)
            produce(std::true_type());
        else
            produce(std::false_type());
        return;
    }
    asm volatile("setmaxnreg.inc.sync.aligned.u32 224;" ::: "memory");

    const int wg = warp >> 2, wq = warp & 3, g = lane >> 2, t = lane & 3;
    const int rowb = a.pw * 4;
    /* The thread's A rows: output channels r0 = (alt ? 0 : 64 wg) + 16 wq + g and r0 + 8 of the block; its
     * first column: the window element (fp32: t, 16-bit: 2t), which sits in a row at byte gsh*es (cp.async
     * chunks) or at the row's offset in its bulk span (the window start's address mod 16). */
    const int r0 = (alt ? 0 : 64 * wg) + 16 * wq + g;
    const uint32_t aoff = a.cps * a.xb + r0 * rowb + (HALF ? 2 * t : t) * a.s * (int)sizeof(T);
    const int es_ = (int)sizeof(T), st4 = 4 * a.s * es_; /* bytes from column k to k + 4 (fp32) */
    const int h1 = a.s * es_, h8 = 8 * a.s * es_;       /* 16-bit: from column 2t to 2t + 1, 2t + 8 */
    /* grad_y row of the thread's first A row (slot r0), less n * cout; slot r0 + 8 holds row + 8*xg (a warp's 16
     * slots lie in one residue group) */
    const int64_t grow0 = (int64_t)co0 + rs_slot_co(r0, a);
    float acc[NK][BN / 2];
#pragma unroll
    for (int j = 0; j < NK; ++j)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) acc[j][i] = 0.f;

    int prev = -1; /* the stage whose MMAs may still be pending */
    const int step = alt ? 2 : 1;
    int it = alt ? wg : 0;
    int64_t n = (f0 + it) / a.qchunks;
    int qc = (int)(f0 + it - n * a.qchunks);
    for (; it < iters; it += step) {
        const int s = it % a.stages;
        const int l0 = qc * kBK * a.cps;
        uint32_t o1 = gsh * (int)sizeof(T), o2 = o1; /* byte offsets of the window in rows r0, r0 + 8 */
        if (by_bulk(l0)) {
            const int64_t e = ((n * (VIEW ? a.gn : a.cout) + grow0) * a.L_out + (int64_t)l0 * a.s + e_off) * (int64_t)sizeof(T);
            o1 = (uint32_t)((a.gy_addr + e) & 15);
            o2 = (uint32_t)((a.gy_addr + e + 8 * (int64_t)a.xg * a.L_out * (int64_t)sizeof(T)) & 15);
        }
        for (qc += step; qc >= a.qchunks; qc -= a.qchunks) ++n;
        mbar_wait(full0 + 8 * s, (it / a.stages) & 1);
        const uint32_t st = sbase + s * a.sb;
#pragma unroll 1
        for (int c = 0; c < a.cps; ++c)
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) {
            /* The A fragments of every tap at k-step kk: registers (row g, k lo), (row g+8, k lo),
             * (row g, k hi), (row g+8, k hi); fp32 k = t, t+4, 16-bit (2t, 2t+1), (2t+8, 2t+9).
             * TF32: rounded to nearest by adding half an ulp (the MMA ignores the 13 low bits). */
            uint32_t af[NK][4];
#pragma unroll
            for (int j = 0; j < NK; ++j) {
                const uint32_t q = st + aoff + ((4 * c + kk) * (HALF ? 16 : 8) * a.s + j * a.d) * es_;
                const uint32_t pa = q + o1, pb = q + 8 * rowb + o2;
                if constexpr (HALF) {
                    /* Stride 1: both rows' offsets are even or odd together (even L_out), one test for the
                     * warp; strided, the pair's two columns are s elements apart. */
                    if (a.s == 1 && (pa & 3) == 0) { /* the pairs are whole words */
                        af[j][0] = lds_u32(pa);
                        af[j][1] = lds_u32(pb);
                        af[j][2] = lds_u32(pa + 16);
                        af[j][3] = lds_u32(pb + 16);
                    } else {
                        af[j][0] = lds_u16(pa) | (lds_u16(pa + h1) << 16);
                        af[j][1] = lds_u16(pb) | (lds_u16(pb + h1) << 16);
                        af[j][2] = lds_u16(pa + h8) | (lds_u16(pa + h8 + h1) << 16);
                        af[j][3] = lds_u16(pb + h8) | (lds_u16(pb + h8 + h1) << 16);
                    }
                } else {
                    af[j][0] = lds_u32(pa) + 0x1000u;
                    af[j][1] = lds_u32(pb) + 0x1000u;
                    af[j][2] = lds_u32(pa + st4) + 0x1000u;
                    af[j][3] = lds_u32(pb + st4) + 0x1000u;
                }
            }
            wg_fence();
#pragma unroll
            for (int j = 0; j < NK; ++j) {
                wg_mma_rs<TY, BN>::run(acc[j], af[j], desc_sw128(st + c * a.xb + kk * 32));
            }
            wg_commit();
            /* At most this step pending: the previous step's fragments may be reloaded, and once the
             * first step of a stage is issued, the previous stage is free. */
            wg_wait<1>();
            if (kk == 0 && c == 0 && prev >= 0 && lane == 0) mbar_arrive(empty0 + 8 * prev);
        }
        prev = s;
    }
    wg_wait<0>();
    if (prev >= 0 && lane == 0) mbar_arrive(empty0 + 8 * prev);

    /* Partials: acc[j][4i + u] is row (co) 16 wq + g, column (ci) 8i + 2t + u; acc[j][4i + 2 + u] row + 8. */
    const int slot = alt ? 2 * sp + wg : sp;
    const int cob = co0 + rs_slot_co(r0, a); /* rows cob and cob + 8*xg */

#pragma unroll
    for (int j = 0; j < NK; ++j) {
        if (k0 + j >= a.K) break;
        float *wsk = a.ws + ((int64_t)slot * a.K + k0 + j) * a.cout * a.cin;
#pragma unroll
        for (int i = 0; i < BN / 8; ++i) {
            const int ci = ci0 + 8 * i + 2 * t;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int co = cob + 8 * a.xg * h;
                if (co >= a.cout || ci >= a.cin) continue;
                float *dst = wsk + (int64_t)co * a.cin + ci;
                if ((a.cin & 1) == 0) { /* ci even: 8-byte aligned */
                    *reinterpret_cast<float2 *>(dst) = make_float2(acc[j][4 * i + 2 * h], acc[j][4 * i + 2 * h + 1]);
                } else {
                    dst[0] = acc[j][4 * i + 2 * h];
                    if (ci + 1 < a.cin) dst[1] = acc[j][4 * i + 2 * h + 1];
                }
            }
        }
    }
#else
    __trap(); /* not built for sm_90a: the host never launches it */
#endif
}

/* grad_w[ci, co, k] = sum over slots (in order) of partial[slot][k][co][ci]. */
template <int TY>
__global__ void rs_bw_reduce_kernel(const float *ws, typename wg_type<TY>::T *gw, int cin, int cout, int K, int slots) {
    const int64_t total = (int64_t)cin * cout * K, slab = total;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        /* e walks the partials' layout [k][co][ci] (coalesced reads); the store scatters into [ci][co][k]. */
        const int ci = (int)(e % cin);
        const int64_t r = e / cin;
        const int co = (int)(r % cout), k = (int)(r / cout);
        float v = 0.f;
        for (int s = 0; s < slots; ++s) v += ws[s * slab + e];
        gw[((int64_t)ci * cout + co) * K + k] = wg_type<TY>::from_f(v);
    }
}

/* view: pr is one group's problem (groups 1, C_in/groups and C_out/groups channels) and gy, x the group's views, whose
 * rows per sample are gn (grad_y) and xn (x). */
template <int TY, int BN, int NK>
convt1d_status rs_run(const convt1d_problem &pr, const void *gy, const void *x, void *gw, cudaStream_t stream, bool view,
                      int gn, int xn) {
    typedef typename wg_type<TY>::T T;
    const convt1d_params &P = pr.p;
    const int es = (int)sizeof(T), kBK = kRow / es;
    const int cin = (int)P.in_channels, cout = (int)P.out_channels, N = (int)P.batch, L = (int)P.in_length;
    const int K = (int)P.kernel_size, d = (int)P.dilation;

    RsBwArgs a;
    a.gn = view ? gn : cout;
    a.gy = gy;
    a.cin = cin;
    a.cout = cout;
    a.K = K;
    a.s = (int)P.stride;
    a.d = d;
    a.p = (int)P.padding;
    a.L_out = (int)pr.out_length;
    a.tgroups = (K + NK - 1) / NK;
    a.R = cout <= 64 ? 64 : 128;
    a.ci_tiles = (cin + BN - 1) / BN;
    a.co_tiles = (cout + a.R - 1) / a.R;
    const int halo = (NK - 1) * d;
    if (halo > kMaxHalo) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.gy_addr = (uintptr_t)gy;
    {
        /* Rows by residue (RsBwArgs::xg) where a warp's 16 slots hold one residue (R/xg a multiple of 16);
         * CONVT1D_WGMMA_BW_RS_PERM=0: rows in order (A/B). */
        const char *pv = convt1d_env("CONVT1D_WGMMA_BW_RS_PERM");
        const int xg = tma_row_group((int64_t)a.L_out * es);
        a.xg = (pv && pv[0] == '0') || (a.R / xg) % 16 != 0 ? 1 : xg;
        a.xgl = __builtin_ctz(a.xg);
        a.gl = __builtin_ctz(a.R / a.xg);
    }
    a.xb = BN * kRow;
    /* Chunks per stage: the most (up to 3, or CONVT1D_WGMMA_BW_RS_CPS = 1..4 for A/B runs) that leave 3
     * stages (2 with CONVT1D_WGMMA_BW_RS_STAGES2=1) where the warpgroups share stages; alternate stages
     * (R = 64) need an even count, 4 at least: each warpgroup then owns every other stage, two of them (one
     * held while the next fills). With an odd count a warpgroup's stage was last used by the other one, and
     * its parity wait could pass on the phase two back while that fill was still in flight: an mbarrier's
     * parity tells only its current phase from the one before (the suspected cause of the run-68/69 launch
     * failures at strides 2..4: KernelBench 79 ran alternate stages at 3; waiting for the other's phase
     * first deadlocks instead, run 76, once both phases are done). Every stage costs the
     * producer a bulk copy per grad_y row and the consumers a barrier round, so longer stages pay:
     * KernelBench 64 TF32 3.30 -> 2.13 ms at 2 chunks (run 64), KernelBench 74 TF32 0.86 -> 0.63 ms at 3
     * (run 65; 4: 0.65). */
    const char *cv = convt1d_env("CONVT1D_WGMMA_BW_RS_CPS"), *sv = convt1d_env("CONVT1D_WGMMA_BW_RS_STAGES2");
    const int cps_max = cv && cv[0] >= '1' && cv[0] <= '4' ? cv[0] - '0' : 3;
    const int min_stages = a.R == 64 ? 4 : sv && sv[0] == '1' ? 2 : 3;
    /* TMA boxes for the interior chunks (RsBwArgs::gtma): grad_y 16-byte aligned, C_out whole groups of xg rows
     * (so every group starts 16-byte aligned), group coordinates in int; box width (the row pitch) checked below.
     * The largest offset a window start takes in its 16 bytes, over the residue groups and tap groups. */
    const char *tv = convt1d_env("CONVT1D_WGMMA_BW_RS_TMA");
    a.gtma = !(tv && tv[0] == '0') && ((uintptr_t)gy & 15) == 0 && cout % a.xg == 0 &&
             ((int64_t)a.xg * a.L_out * es) % 16 == 0 && (int64_t)a.xg * a.L_out < INT_MAX / 2;
    int maxres = 0;
    for (int m = 0; m < a.xg; ++m)
        for (int kg = 0; kg < a.tgroups; ++kg) {
            const int64_t e = (int64_t)m * a.L_out + (int64_t)kg * NK * d - a.p;
            const int r = (int)(((e * es) % 16 + 16) % 16);
            maxres = r > maxres ? r : maxres;
        }
    auto plan = [&]() {
        for (a.cps = cps_max; a.cps >= 1; --a.cps) {
            a.win = a.s * (kBK * a.cps - 1) + 1 + halo;
            a.ww = ((es == 2 ? 1 : 0) + a.win + 4 / es - 1) / (4 / es); /* cp.async words, with the 16-bit parity slack */
            const int span_words = a.gtma ? (maxres + a.win * es + 3) / 4   /* a TMA box from the aligned start */
                                          : (15 + a.win * es + 15) / 16 * 4; /* the longest bulk span */
            const int need = a.ww > span_words ? a.ww : span_words;
            a.pw = (need + 27) / 32 * 32 + 4; /* the least >= need that is 4 (mod 32): conflict-free fragment loads */
            a.sb = (a.cps * a.xb + a.R * a.pw * 4 + 1023) / 1024 * 1024;
            a.stages = (kWgMaxSmem - 1024 - 256) / a.sb;
            if (a.stages > 8) a.stages = 8;
            if (a.R == 64) a.stages &= ~1;
            if (a.stages >= min_stages) break;
        }
    };
    plan();
    CUtensorMap tmg;
    memset(&tmg, 0, sizeof(tmg)); /* unused (never read) without gtma */
    if (a.gtma && a.cps >= 1 &&
        (a.pw * 4 / es > 256 ||
         !make_group_map(&tmg, gy, es, a.L_out, cout, N, a.xg, (uint32_t)(a.pw * 4 / es), (uint32_t)(a.R / a.xg),
                         (int64_t)a.gn * a.L_out))) {
        a.gtma = 0; /* a box wider than TMA takes (256 elements), or no map: the bulk copies, planned for them */
        plan();
    }
    if (a.cps < 1) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.qchunks = (L + kBK * a.cps - 1) / (kBK * a.cps);
    a.total = (int64_t)N * a.qchunks;
    a.bar_off = a.stages * a.sb;
    const int smem = a.bar_off + a.stages * 16 + 1024;
    const int64_t tiles = (int64_t)a.ci_tiles * a.co_tiles * a.tgroups;
    if (tiles > INT_MAX) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int sms = convt1d_sm_count() > 0 ? convt1d_sm_count() : 132;
    /* Each split at least 8 stages (CONVT1D_WGMMA_BW_RS_MINSTAGES=n: n, for A/B). Until Session 50 the floor was 64, and
     * it bound on small batches: bigvgan_v2_up4_train (4 x 192 -> 96, 172 stages, 3 tiles) ran 6 blocks of 86 stages.
     * Run 450 (H100, bf16 ms, floor 64 / 16 / 8, 2 rounds, alternating processes): bigvgan_v2_up4_train 0.139 / 0.052 /
     * 0.047-0.048 (cuDNN 0.073), up3 0.148 / 0.075 / 0.075 (0.070), dac_44k_up4_train 0.144 / 0.076 / 0.076 (0.127),
     * encodec_24k_up4_train 0.120-0.123 / 0.044 / 0.038 (0.073); TF32 0.092 -> 0.060 on up4; the suite's register-A
     * layers (KernelBench 64 / 74, hifigan_up3 / up4), whose tiles fill the GPU, alike at every floor. The scratch
     * stays bounded: pick_splits stops near one wave of blocks, so splits x tile weights ~ SMs x one tile's. */
    const char *mv = convt1d_env("CONVT1D_WGMMA_BW_RS_MINSTAGES");
    const int mv_stages = mv ? atoi(mv) : 0;
    a.splits = pick_splits(tiles, a.total, sms, 1024, mv_stages >= 1 ? mv_stages : 8, 65535);
    const int slots = a.splits * (a.R == 64 ? 2 : 1);

    CUtensorMap tmx;
    if (!make_map(&tmx, x, es, (uint64_t)L, (uint64_t)cin, (uint64_t)N, kBK, BN, 1, 0, true, (uint64_t)(view ? xn : cin) * L))
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const size_t ws_bytes = (size_t)slots * K * cout * cin * sizeof(float);
    void *scratch = nullptr;
    cudaError_t e = cudaMallocAsync(&scratch, ws_bytes, stream);
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma stride-1 backward-weight: scratch: %s", cudaGetErrorString(e));
    a.ws = static_cast<float *>(scratch);
    if (view)
        e = launch_big_smem<bwd_weight_rs_kernel<TY, BN, NK, true>>(dim3((unsigned)tiles, (unsigned)a.splits), kThreads, smem,
                                                                     stream, tmx, tmg, a);
    else
        e = launch_big_smem<bwd_weight_rs_kernel<TY, BN, NK, false>>(dim3((unsigned)tiles, (unsigned)a.splits), kThreads, smem,
                                                                      stream, tmx, tmg, a);
    if (e == cudaSuccess) {
        const int64_t total = (int64_t)cin * cout * K;
        const int blocks = (int)((total + 255) / 256 < 4096 ? (total + 255) / 256 : 4096);
        rs_bw_reduce_kernel<TY><<<blocks, 256, 0, stream>>>(a.ws, static_cast<T *>(gw), cin, cout, K, slots);
        e = cudaGetLastError();
    }
    const cudaError_t f = cudaFreeAsync(scratch, stream);
    if (e == cudaSuccess) e = f;
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma stride-1 backward-weight launch failed: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

/* The tap count per block is a template parameter: a run-time count made the MMAs conditional, and ptxas
 * then fenced each one (C7519). Up to 128 accumulator registers per thread: 64 input channels x 1..4
 * taps, or 32 x 5..8 (more taps: equal groups of 5..8, the last one's excess computed and dropped). */
template <int TY>
convt1d_status rs_run_tile(const convt1d_problem &pr, const void *gy, const void *x, void *gw, cudaStream_t stream,
                           bool view = false, int gn = 0, int xn = 0) {
    const int K = (int)pr.p.kernel_size;
    const int nk = K <= 8 ? K : (K + (K + 7) / 8 - 1) / ((K + 7) / 8);
    switch (nk) {
    case 1: return rs_run<TY, 64, 1>(pr, gy, x, gw, stream, view, gn, xn);
    case 2: return rs_run<TY, 64, 2>(pr, gy, x, gw, stream, view, gn, xn);
    case 3: return rs_run<TY, 64, 3>(pr, gy, x, gw, stream, view, gn, xn);
    case 4: return rs_run<TY, 64, 4>(pr, gy, x, gw, stream, view, gn, xn);
    case 5: return rs_run<TY, 32, 5>(pr, gy, x, gw, stream, view, gn, xn);
    case 6: return rs_run<TY, 32, 6>(pr, gy, x, gw, stream, view, gn, xn);
    case 7: return rs_run<TY, 32, 7>(pr, gy, x, gw, stream, view, gn, xn);
    default: return rs_run<TY, 32, 8>(pr, gy, x, gw, stream, view, gn, xn);
    }
}

/* Grouped layers (Session 24): the kernel once per group, on the group's views of grad_y and x (their first channel;
 * the whole tensors' rows per sample) into the group's slice of grad_w, as a groups-1 problem of C_in/groups and
 * C_out/groups channels. Where every view is aligned as the whole tensors are (every launch then makes the same
 * choices). */
template <int TY>
convt1d_status rs_run_groups(const convt1d_problem &pr, const void *gy, const void *x, void *gw, cudaStream_t stream) {
    const GroupSteps step = group_steps(pr, TY == WG_TF32 ? 4 : 2);
    if (!step.aligned()) return CONVT1D_ERROR_NOT_SUPPORTED;
    const convt1d_problem pg = one_group(pr);
    return for_each_group(pr, "wgmma grad_weight", [&](int64_t g) {
        return rs_run_tile<TY>(pg, static_cast<const char *>(gy) + g * step.y, static_cast<const char *>(x) + g * step.x,
                               static_cast<char *>(gw) + g * step.w, stream, true, (int)pr.p.out_channels,
                               (int)pr.p.in_channels);
    });
}

}  // namespace

/* CONVT1D_WGMMA_BW_RS (read at every call, for tests and A/B timing): unset, the heuristic; 0 off; 1 every
 * problem the kernel takes. */
convt1d_status convt1d_bwd_weight_rs(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                     cudaStream_t stream) {
    const char *ev = convt1d_env("CONVT1D_WGMMA_BW_RS");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    const int ty = wg_kind(pr.dtype, pr.math);
    if (env == 0 || (ty != WG_F16 && ty != WG_BF16 && ty != WG_TF32)) return CONVT1D_ERROR_NOT_SUPPORTED;
    /* Strides 2..4 (a stage's grad_y window is s times its positions; CONVT1D_WGMMA_BW_RS_STRIDED=0 off):
     * 1.6-1.8x faster than the kernels they replace on hifigan_up3 / up4 (run 69). Their KernelBench 79 TF32
     * launch failures (runs 68-69) are put down to alternate stages at an odd stage count (see rs_run).
     * Larger strides: the phase-plane kernel of bwd_weight_wgmma.cu. */
    const char *sv = convt1d_env("CONVT1D_WGMMA_BW_RS_STRIDED");
    const int max_stride = sv && sv[0] == '0' ? 1 : 4;
    /* Groups: up to 8 of 32+ channels each by default (CONVT1D_WGMMA_BW_RS=1: any); grouped_g4 bf16, run 266. */
    const bool grouped = P.groups > 1;
    if (grouped && env < 0 && (P.groups > 8 || pr.cin_g < 32 || pr.cout_g < 32)) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.stride > max_stride || P.batch == 0 || P.batch > 65535) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.in_length >= INT_MAX / 2 || pr.out_length >= INT_MAX / 2 || P.in_channels > 65535 ||
        P.out_channels > 65535 || P.kernel_size > 4096 || P.dilation > kMaxHalo || P.padding > INT_MAX / 4)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const int es = ty == WG_TF32 ? 4 : 2;
    /* x through TMA: 16-byte rows and base; grad_y by 4-byte words: 16-bit rows of even length. */
    if ((P.in_length * es) % 16 != 0 || ((uintptr_t)x & 15) != 0 || ((uintptr_t)grad_y & 3) != 0)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (es == 2 && (pr.out_length & 1)) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (convt1d_sm_major() != 9 || !sm90a_built<bwd_weight_rs_kernel<WG_BF16, 64, 3, false>>()) return CONVT1D_ERROR_NOT_SUPPORTED;
    /* Where it pays: both GEMM sides at least a warpgroup tile's worth; strided TF32 with a full 64-row tile
     * (run 80, ms, vs the kernels it replaces: KernelBench 79 0.86 vs 1.13, hifigan_up3 1.71 vs 1.91, but
     * hifigan_up4, C_out 32, 1.66 vs 1.27; in 16-bit it wins there too: 0.82 vs 1.18). */
    if (env < 0 && (pr.cin_g < 16 || pr.cout_g < 16)) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (env < 0 && P.stride > 1 && ty == WG_TF32 && pr.cout_g < 64) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (grouped) {
        switch (ty) {
        case WG_F16: return rs_run_groups<WG_F16>(pr, grad_y, x, grad_w, stream);
        case WG_BF16: return rs_run_groups<WG_BF16>(pr, grad_y, x, grad_w, stream);
        default: return rs_run_groups<WG_TF32>(pr, grad_y, x, grad_w, stream);
        }
    }
    switch (ty) {
    case WG_F16: return rs_run_tile<WG_F16>(pr, grad_y, x, grad_w, stream);
    case WG_BF16: return rs_run_tile<WG_BF16>(pr, grad_y, x, grad_w, stream);
    default: return rs_run_tile<WG_TF32>(pr, grad_y, x, grad_w, stream);
    }
}

/* ---------------------------------------------------------------- one phase of grad_y
 * When every tap reads one phase r of grad_y (one_phase_problem, kernels.cuh), grad_w is the stride-1
 * problem on gy_r[n, co, q] = gy[n, co, q*s + r]. KernelBench 79 (s = d = 2, p = 1) reads only the odd
 * positions of an odd-length grad_y: the register-A kernel declined it (16-bit rows of odd length) and the
 * mma.sync kernel read both phases. The gather reads grad_y once and writes 1/s of it. */
namespace {

template <typename T>
__global__ void __launch_bounds__(256) gy_phase_kernel(const T *gy, T *out, int64_t rows, int64_t L_out, int64_t Q,
                                                       int s, int r, bool vec) {
    constexpr int VE = 16 / (int)sizeof(T);
    const int64_t q0 = ((int64_t)blockIdx.x * 256 + threadIdx.x) * VE;
    if (q0 >= Q) return;
    for (int64_t row = blockIdx.y; row < rows; row += gridDim.y) {
        const T *src = gy + row * L_out + r;
        T *dst = out + row * Q;
        union {
            uint4 u;
            T e[VE];
        } v;
#pragma unroll
        for (int i = 0; i < VE; ++i) v.e[i] = q0 + i < Q ? src[(q0 + i) * s] : T();
        if (vec && q0 + VE <= Q) {
            *reinterpret_cast<uint4 *>(dst + q0) = v.u;
        } else {
            for (int i = 0; i < VE && q0 + i < Q; ++i) dst[q0 + i] = v.e[i];
        }
    }
}

}  // namespace

convt1d_status convt1d_bwd_weight_rs_phase(const convt1d_problem &pr, const void *grad_y, const void *x, void *grad_w,
                                           cudaStream_t stream) {
    /* CONVT1D_WGMMA_BW_PHASE=0 off, 1 also where the register-A kernel takes the problem as it is. */
    const char *ev = convt1d_env("CONVT1D_WGMMA_BW_PHASE");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const char *rv = convt1d_env("CONVT1D_WGMMA_BW_RS");
    const convt1d_params &P = pr.p;
    const int ty = wg_kind(pr.dtype, pr.math);
    if (env == 0 || (rv && rv[0] == '0') || (ty != WG_F16 && ty != WG_BF16 && ty != WG_TF32)) return CONVT1D_ERROR_NOT_SUPPORTED;
    convt1d_problem q;
    int r = 0;
    if (P.groups != 1 || P.batch == 0 || !one_phase_problem(pr, &q, &r)) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int es = ty == WG_TF32 ? 4 : 2;
    /* By default only where the register-A kernel declines the problem as it is: 16-bit, odd grad_y length. */
    if (env < 0 && !(es == 2 && (pr.out_length & 1))) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t s = P.stride, Q = q.out_length;
    q.p.output_padding = 0; /* the register-A kernel reads the output length only */
    /* What the stride-1 call will need, checked before any work: 16-bit rows of even length, x by TMA. */
    if ((es == 2 && (Q & 1)) || (P.in_length * es) % 16 != 0 || ((uintptr_t)x & 15) != 0 || convt1d_sm_major() != 9)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t rows = P.batch * P.out_channels;
    void *scratch = nullptr;
    cudaError_t e = cudaMallocAsync(&scratch, (size_t)(rows * Q * es), stream);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return CONVT1D_ERROR_NOT_SUPPORTED; /* no room: the other kernels need none */
    }
    const int VE = 16 / es;
    const dim3 grid((unsigned)((Q + 256 * VE - 1) / (256 * VE)), (unsigned)(rows < 65535 ? rows : 65535));
    const bool vec = (Q * es) % 16 == 0;
    if (es == 2)
        gy_phase_kernel<uint16_t><<<grid, 256, 0, stream>>>(static_cast<const uint16_t *>(grad_y), static_cast<uint16_t *>(scratch),
                                                            rows, pr.out_length, Q, (int)s, r, vec);
    else
        gy_phase_kernel<float><<<grid, 256, 0, stream>>>(static_cast<const float *>(grad_y), static_cast<float *>(scratch), rows,
                                                         pr.out_length, Q, (int)s, r, vec);
    convt1d_status st = CONVT1D_SUCCESS;
    e = cudaGetLastError();
    if (e == cudaSuccess) st = convt1d_bwd_weight_rs(q, scratch, x, grad_w, stream);
    const cudaError_t f = cudaFreeAsync(scratch, stream);
    if (e != cudaSuccess || (st == CONVT1D_SUCCESS && f != cudaSuccess))
        return convt1d_fail(CONVT1D_ERROR_CUDA, "grad_weight (one phase of grad_y): %s",
                            cudaGetErrorString(e != cudaSuccess ? e : f));
    return st;
}

