/* Hopper forward (fp16, bf16, fp32 as TF32 or as split TF32 when TF32 is off): the polyphase implicit
 * GEMM on wgmma, both operands fed to shared memory by TMA.
 *
 * GEMM (one batch row n, groups == 1), positions on the M side:
 *   D[q, m] = sum_{j < T} sum_ci X[ci, q - j*dj] * Wm[j][m][ci]
 *   stride 1:  m = co, tap j = k, dj = d; output o = q - p.
 *   stride s > 1 (phases merged, see merge_phases in fwd_tc.cu): m = co*s + r, tap j holds the weight k
 *   with k*d = j*s + r (zero if none), dj = 1; output o = q*s + r - p.
 * Why the input is transposed first: a tap shifts the input by one element along q. A TMA box must start
 * 16-byte aligned along the contiguous dimension (dev/cuda/tma/tma_probe.cu) and a wgmma descriptor
 * moves in 16-byte steps, so the shift cannot be taken along x's contiguous L axis. Transposed,
 * Xt[n][q][ci] (ci contiguous, padded to the 128-byte chunk), q is an outer dimension: each tap is its
 * own TMA box starting at row q0 - j*dj (any integer; rows outside the tensor arrive as zeros), and
 * both operands are K-major with the 128-byte swizzle, as a plain GEMM. TF32 needs K-major operands
 * anyway. The transpose (one read and one write of x, tf32-rounded in TF32 mode) is cheap next to the
 * GEMM on the compute-bound layers this kernel is for; memory-bound shapes stay on mma.sync.
 *
 * Block: BQ = 128 positions (two consumer warpgroups of 64) x BR packed rows m (128 at two blocks per SM,
 * or 256 at one), plus one producer warp.
 * Packed rows: a tile of BR rows holds R = BR / s whole output channels (RT = R*s rows; the rest are
 * zero weights), so any stride up to 64 works and each block writes whole channels.
 * Pipeline stage: one 128-byte channel chunk (64 16-bit or 32 fp32 channels) of one tap: the weights
 * [BR][chunk] and the input [BQ][chunk] (one TMA box each); full/empty mbarriers; the consumers keep
 * one stage of MMAs in flight while waiting for the next. (Several taps per stage put the MMAs in a
 * loop of run-time length, and ptxas then serializes them: warning C7520.)
 * Epilogue: bias added, converted, staged in shared memory in output order (row co, column o, each row
 * shifted so its 16-byte global chunks line up), then written with 16-byte stores.
 *
 * Taken for: sm_90 (built as sm_90a), groups == 1, stride <= 64, outside the tiny sizes; the heuristic
 * in convt1d_fwd_wgmma picks the shapes where it measured faster (docs/design.md, Session 5). */
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cudaTypedefs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>
#include <type_traits>

#include "bwd_input_planes.cuh" /* convt1d_pl_gcd */
#include "kernels.cuh"
#include "wgmma_common.cuh"

namespace {

constexpr int kBQ = 128;              /* positions per block: two consumer warpgroups of 64 */
constexpr int kRowPad = 16;           /* epilogue: elements of room per staged row for its alignment shift */
constexpr int kThreads = 2 * 128 + 32;
constexpr int kMaxSmem = kWgMaxSmem;
constexpr size_t kXtBudget = (size_t)512 << 20; /* transposed-input scratch per batch chunk */
constexpr int kWresMax = 64 * 1024;   /* register-A kernel: resident weights up to this by default ... */
constexpr int kWresMax16 = 96 * 1024; /* ... and in the 16-bit forward (KernelBench 64: 96 KB, run 154), TF32 stride 1
                                         * where rs_s1_direct (Session 39) */

struct WgArgs {
    const void *bias;
    void *y;     /* output of this batch chunk */
    int cout, L_out, p;
    int ps;      /* phases merged into rows (1 at stride 1) */
    int T;       /* taps */
    int dj;      /* input offset between consecutive taps */
    int R;       /* output channels per block: BR / ps */
    int nchunk;  /* 128-byte channel chunks */
    int qa;      /* first q of tile 0 */
    int stages;
    int yvec;    /* y 16-byte aligned: full chunks use 16-byte stores */
    int nb;      /* WG_TF32X3: the small halves sit nb batches (input) / T taps (weights) after the big */
    /* SS kernel's split reduction (grad_input with too few tiles for the GPU): blockIdx.z = kz*kn + n, split kz
     * takes chunks [kz*kcps, kz*kcps + kcps) and writes fp32 partial sums at y + kz*kstride (same layout as the
     * output; kstride a multiple of 4); ksplit_reduce_kernel adds the ks partials in order. ks = 1: kcps = nchunk. */
    int ks, kcps, kn;
    int64_t kstride;
    /* Register-A kernel (fwd_wgmma_rs_kernel) only: */
    int win;     /* window columns per TMA box: 128 positions + hal, rounded for conflict-free A loads */
    int hal;     /* window columns before a box's first position (>= (T-1)*dj, 16-byte multiple) */
    int sb;      /* stage bytes (1024-byte multiple) */
    int txb;     /* bytes TMA delivers per stage */
    int q_tiles, r_tiles, N; /* the persistent grid's tiles: q tiles x row tiles x batch */
    /* Input staging (XS_*): TMA boxes; the producer warpgroup's 8-byte cp.async; or one bulk copy per box
     * row (rows that TMA cannot address: a row pitch that is not a 16-byte multiple). */
    int xstage;
    /* XS_TMA with rows TMA cannot address one by one (row pitch L*es not a 16-byte multiple): xg rows make
     * a pitch that is (xg = 16 / gcd(L*es, 16), at most 4); the map's rows are groups of xg input rows laid
     * end to end (xg*L elements), and a chunk's box comes as xg boxes of kBK/xg rows, box m taking the rows
     * m, m + xg, ... Stage row m*kBK/xg + j is then channel xg*j + m of the chunk; the packed weights follow
     * that order (PackMap::col). A box must start at a 16-byte multiple (run 177: an illegal instruction
     * otherwise), and row m of a group starts m*L elements in, so box m starts at group_col(m) (the aligned
     * column at or below its first used one) and its rows sit m*L - group_col(m) columns off the plain
     * layout: one offset per k-step for the consumers (a k-step's channel rows lie in one box). 1: plain. */
    int xg;
    int xpitch;      /* bytes between the channel rows of a staged box (win * es, except XS_BULK) */
    int wcols;       /* XS_BULK: window columns a row brings (128 + hal) */
    const void *x;   /* the input, for the cp.async and bulk paths */
    int cin, L;      /* its channels and length */
    /* Register-A grad_input (BI): the input is grad_y read as s*C_out phase channels c = co*gs + b,
     * X[c, u] = gy[co][u*gs + b - gp]; a box row holds the raw grad_y segment of one co (gpitch elements
     * from position ustart*gs - gp - gsh, gsh = 1 where that keeps 16-bit words aligned); boxes start at
     * ustart = q0 + 128*box - hal + woff (woff = T-1: the taps read ahead, flipped into the usual order). */
    int gs, gcout, gL, gp, gpitch, gsh, woff;
    int grpc;    /* grad_y rows per box: chunk kBK channels span up to ceil(kBK/gs) + 1 rows (gs not dividing kBK) */
    int pair32;  /* 16-bit BI: a fragment register's two channels are adjacent 4-byte-aligned elements (one load) */
    int pairs;   /* 16-bit forward, ps = 1: MMA rows g, g + 8 stand for positions 2g, 2g + 1 (fwd_wgmma_rs_kernel PAIRS) */
    int kskip;   /* forward: chunks with channels in at most half of them run only those two k-steps */
    int pfast;   /* forward, phase-merged rows, direct stores: interior tiles store with no checks (the epilogue) */
    int hoist;   /* 16-bit pairs (forward PAIRS, BI pair32): the word test once per tap / launch, not per load */
    /* Shared-memory layout of the register-A kernel, byte offsets from the 1024-aligned base: the stage
     * ring at 0, then the resident weights (wres: every chunk's weights loaded once per block, the block's
     * row tile fixed by a grid that is a multiple of r_tiles; the stages then hold the input only), the
     * epilogue's staged tile (stg_off >= 0: rows of spitch elements, written out by bulk copies), the
     * mbarriers. */
    int wres, wr_off, stg_off, bar_off, spitch;
    int skew_ns; /* the second consumer warpgroup starts this late (CONVT1D_WGMMA_RS_SKEW, experiment) */
    int pp;      /* ping-pong: the consumer warpgroups take alternate tiles of 64*MQ positions (MQ = 2) */
    int ppo;     /* ping-pong with fewer stages than a tile's chunks + 1: the warpgroups' tiles ordered (the kernel) */
    int ppo_k;   /* ppo: ordering barriers per warpgroup, 1..kPpoBars: the other's last ppo_k chunks each let one of
                  * this warpgroup's first ppo_k chunks of its next tile in (the kernel's comment on PPO) */
    int q_tiles_pp; /* q tiles at that size */
    int ypair;   /* register-A forward, ps even: rows 2t, 2t + 1 (phases r, r + 1 of one channel) stored as one pair */
    /* Register-A forward of a one-phase layer (d = m*s, s >= 2; convt1d_fwd_wgmma_one_phase): the stride-1 GEMM of
     * phase 0 (ps = 1, taps m apart, rows = channels), its outputs os = s apart at o = q*os - p, the other
     * columns of each staged row holding the bias (staged epilogue only). 1 otherwise. */
    int os;
    /* Register-A stride-1 forward, staged, no ping-pong (Session 22; run_rs asks for it, rs_launch takes it where it
     * fits): the two warpgroups' halves of a tile share one staged tile, whose rows (128*MQ positions) leave as one
     * piece each. 0: each warpgroup stages and sends its own 64*MQ positions. */
    int joint;
    /* Rows per sample of y (of the whole tensor): cout except in one group's view of a grouped layer (Session 24:
     * the register-A forward and grad_input of groups > 1 run one launch per group, x / y / grad_y offset to the
     * group's first channel, cin / cout / gcout its channels, xn / yn / gn the tensors' channels). */
    int yn;
    int gn;   /* BI: grad_y rows per sample */
    int xn;   /* forward: x rows per sample (0: cin, run_rs sets it) */
    /* A group's view: the kernels instantiated with VIEW read yn / gn / xn; without it cout / gcout / cin as before the
     * views, so that groups-1 layers keep their code (run 264: the strides read in every kernel made KernelBench 74
     * TF32 0.706 ms against 0.667, the other layers within 1.3%). */
    int view;
    /* 16-bit forward without position pairs (phase-merged rows), TMA boxes: taps whose shift is a multiple of 8 load
     * their A fragments with ldmatrix (fwd_wgmma_rs_kernel LDM; CONVT1D_WGMMA_RS_LDM=0: never, A/B). */
    int ldm;
    /* TF32 forward with TMA staging: the input boxes rounded to TF32 once per stage in shared memory by the producer
     * warpgroup's idle warps (fwd_wgmma_rs_kernel RX), not per use in the fragments (Session 27; run_rs decides). */
    int rx;
    int rx_tq, rx_tr; /* RX: tiles per block, tiles / grid, and the blocks below tiles % grid take one more (rs_launch) */
    /* Register-A forward: the LEAN kernel (rs_launch, Session 38). Host only, and last, so that the kernels' parameter
     * offsets stay as they were (a member added in between recompiled every kernel that reads the ones after it). */
    int lean;
    /* Register-A kernel: the persistent grid's tile order (tile_rt). 0: row tiles fastest; g > 1: groups of g row tiles
     * take every position tile in turn. Host-set in rs_launch, last for the same reason as lean. */
    int rgrp;
};

enum { XS_CPASYNC = 0, XS_TMA = 1, XS_BULK = 2 };

/* The register-A kernel's tile tl as its row tile (returned) and rest = n * q_tiles + q tile. Row tiles fastest: the
 * blocks resident at once take every row tile of a few position tiles, so all of the weights are in use at once. Where
 * they are larger than L2 (codec_dec_s8: 75 MB of TF32 weights, 50 MB of L2 on an H100) each pass over the position
 * tiles brings them from DRAM again; rgrp > 1 takes groups of rgrp row tiles, each over every position tile, so that
 * one group's weights stay in L2 while it runs (the input is then read once per group). Producer and consumers call
 * this with the same arguments, so they walk the same tiles. */
__device__ __forceinline__ int tile_rt(int64_t tl, int r_tiles, int64_t rests, int rgrp, int64_t &rest) {
    if (rgrp <= 1) {
        rest = tl / r_tiles;
        return (int)(tl % r_tiles);
    }
    const int64_t gsz = (int64_t)rgrp * rests;
    const int g = (int)(tl / gsz);
    const int64_t w = tl - g * gsz;
    const int r0 = g * rgrp, gc = r_tiles - r0 < rgrp ? r_tiles - r0 : rgrp; /* the last group may be smaller */
    rest = w / gc;
    return r0 + (int)(w % gc);
}

/* Grouped rows (WgArgs::xg): the first column of box m in the group's coordinates, relative to the window
 * start (a multiple of ve elements): the ve-aligned column at or below m*L + h, h = hal - (T-1)*dj being the
 * window's leading columns that no tap reads. */
__host__ __device__ __forceinline__ int group_col(int m, int L, int h, int ve) {
    return (m * L + h) / ve * ve; /* m*L < INT_MAX / 2 (run_rs) */
}

/* Stage layout: [weights BR x 128 B][input BQ x 128 B]; barriers after the last stage. */
__host__ __device__ constexpr int stage_bytes(int BR) { return (BR + kBQ) * kRow; }

#if CONVT1D_WG_DEVICE
/* Epilogue helpers shared by both forward kernels. The staged tile holds the block's output in output
 * order: row = output channel (R per block), column = output position (bq*ps per row), each row shifted
 * so that its 16-byte global chunks line up (row_shift). */
__device__ __forceinline__ int row_shift(const WgArgs &a, int n, int co, int64_t obase, int VE) {
    const int64_t e = ((int64_t)n * a.cout + co) * a.L_out + obase;
    return (int)(((e % VE) + VE) % VE);
}

/* One accumulator tile (m64 x BR) into the staged tile: acc[4i + u] (u = 0, 1) is row m = 8i + 2t + u at
 * position qrow, acc[4i + 2 + u] at qrow + 8 (qrow: the thread's first position, g = lane / 4 included). */
template <int TY, int BR>
__device__ __forceinline__ void epi_stage(const float (&acc)[BR / 2], typename wg_type<TY>::T *tile, const WgArgs &a,
                                          int bq, int qrow, int q0, int n, int lane) {
    typedef wg_type<TY> E;
    typedef typename E::T T;
    constexpr int VE = 16 / (int)sizeof(T);
    const int t = lane & 3;
    const int RT = a.R * a.ps;                 /* real rows of the tile */
    const int pitch = bq * a.ps + kRowPad;     /* elements; bq*ps is a multiple of 8: rows stay 16-byte aligned */
    const int64_t obase = (int64_t)q0 * a.ps - a.p;
    const int co0 = blockIdx.y * a.R;
#pragma unroll
    for (int i = 0; i < BR / 8; ++i) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
            const int ml = i * 8 + 2 * t + u;
            if (ml >= RT) continue;
            const int col = ml / a.ps, r = ml - col * a.ps;
            const int co = co0 + col;
            const float bv = a.bias && co < a.cout ? E::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
            T *row = tile + col * pitch + row_shift(a, n, co, obase, VE) + r;
            row[qrow * a.ps] = E::from_f(acc[4 * i + u] + bv);
            row[(qrow + 8) * a.ps] = E::from_f(acc[4 * i + 2 + u] + bv);
        }
    }
}

/* The staged tile to y (the output, or a split's partial sums: WgArgs::ks): 16-byte chunks of each output row,
 * aligned in global memory, one warp per row (8 consumer warps), lanes along it (the row's addresses computed once,
 * no divisions in the loop). */
template <int TY>
__device__ __forceinline__ void epi_store(const typename wg_type<TY>::T *tile, const WgArgs &a, int bq, int q0, int n,
                                          int warp, int lane, typename wg_type<TY>::T *y) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T);
    const int W = bq * a.ps; /* output positions per channel */
    const int pitch = W + kRowPad;
    const int64_t obase = (int64_t)q0 * a.ps - a.p;
    const int co0 = blockIdx.y * a.R;
    const int chunks = W / VE + 2;
    const int64_t o_lo = obase > 0 ? obase : 0;
    const int64_t o_hi = obase + W < a.L_out ? obase + W : a.L_out;
    const int rows = min(a.R, a.cout - co0);
    if (o_lo >= o_hi) return;
    for (int col = warp; col < rows; col += 8) {
        const int64_t gb = ((int64_t)n * a.cout + co0 + col) * a.L_out;
        const int64_t start = gb + obase - row_shift(a, n, co0 + col, obase, VE); /* a multiple of VE: column 0 */
        const int64_t lo = gb + o_lo - start, hi = gb + o_hi - start;                /* valid columns [lo, hi) */
        const T *src = tile + col * pitch;
        T *dst = y + start;
        for (int k = lane; k < chunks; k += 32) {
            const int c = VE * k;
            if (c + VE <= lo || c >= hi) continue;
            if (a.yvec && c >= lo && c + VE <= hi) {
                *reinterpret_cast<uint4 *>(dst + c) = *reinterpret_cast<const uint4 *>(src + c);
            } else {
                for (int v = 0; v < VE; ++v)
                    if (c + v >= lo && c + v < hi) dst[c + v] = src[c + v];
            }
        }
    }
}
#endif

template <int TY, int BR, int MINB>
__global__ void __launch_bounds__(kThreads, MINB)
    fwd_wgmma_kernel(const __grid_constant__ CUtensorMap tmx, const __grid_constant__ CUtensorMap tmw, WgArgs a) {
#if CONVT1D_WG_DEVICE
    typedef wg_type<TY> E;
    typedef typename E::T T;
    constexpr int kBK = kRow / (int)sizeof(T); /* channels per chunk */
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char *sm = (unsigned char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = smem_addr(sm);
    /* Stage: [weights][input], and for WG_TF32X3 the small halves [weights][input] after them. */
    constexpr bool X3 = TY == WG_TF32X3;
    constexpr int SB1 = stage_bytes(BR), SB = X3 ? 2 * SB1 : SB1, WB = BR * kRow;
    const uint32_t full0 = sbase + a.stages * SB, empty0 = full0 + a.stages * 8;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int q0 = a.qa + blockIdx.x * kBQ;
    const int kz = blockIdx.z / a.kn, n = blockIdx.z - kz * a.kn; /* split kz (WgArgs::ks), batch row n */
    const int c_lo = kz * a.kcps;
    const int iters = min(a.kcps, a.nchunk - c_lo) * a.T;

    if (tid == 0) {
        for (int s = 0; s < a.stages; ++s) {
            mbar_init(full0 + 8 * s, 1);
            mbar_init(empty0 + 8 * s, 8); /* the 8 consumer warps */
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (warp == 8) {
        /* Producer: iteration it = (chunk c, tap j): tap j's weights and the input rows it reads. */
        if (lane == 0) {
            asm volatile("prefetch.tensormap [%0];" ::"l"(&tmw) : "memory");
            asm volatile("prefetch.tensormap [%0];" ::"l"(&tmx) : "memory");
            pdl_wait(); /* the pre-pass's packed weights and transposed input (a programmatic launch: run()) */
            for (int it = 0; it < iters; ++it) {
                const int s = it % a.stages;
                if (it >= a.stages) mbar_wait(empty0 + 8 * s, ((it / a.stages) + 1) & 1);
                const int cl = it / a.T, j = it - cl * a.T, c = c_lo + cl;
                const uint32_t st = sbase + s * SB, bar = full0 + 8 * s;
                mbar_expect_tx(bar, SB);
                tma_load_3d(st, &tmw, bar, c * kBK, blockIdx.y * BR, j);
                tma_load_3d(st + WB, &tmx, bar, c * kBK, q0 - j * a.dj, n);
                if (X3) {
                    tma_load_3d(st + SB1, &tmw, bar, c * kBK, blockIdx.y * BR, j + a.T);
                    tma_load_3d(st + SB1 + WB, &tmx, bar, c * kBK, q0 - j * a.dj, n + a.nb);
                }
            }
        }
        return;
    }

    /* Consumers: warpgroup wg owns positions [64 wg, 64 wg + 64) of the block. */
    const int wg = warp >> 2;
    float acc[BR / 2];
#pragma unroll
    for (int i = 0; i < BR / 2; ++i) acc[i] = 0.f;
    for (int it = 0; it < iters; ++it) {
        const int s = it % a.stages;
        mbar_wait(full0 + 8 * s, (it / a.stages) & 1);
        const uint32_t wb = sbase + s * SB, xa = wb + WB + wg * (64 * kRow);
        if (X3) {
            /* The tensor core's own accumulation is not fp32-exact: summed over a long reduction it
             * drifts to ~2e-5 relative (run 25, codec_dec_s8). So each stage's three products go to a
             * fresh accumulator, added into acc with fp32 adds once the stage is done. */
            float tmp[BR / 2];
#pragma unroll
            for (int i = 0; i < BR / 2; ++i) tmp[i] = 0.f;
            wg_fence();
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                wg_mma<TY, BR>::run(tmp, desc_sw128(xa + SB1 + kk * 32), desc_sw128(wb + kk * 32));
                wg_mma<TY, BR>::run(tmp, desc_sw128(xa + kk * 32), desc_sw128(wb + SB1 + kk * 32));
                wg_mma<TY, BR>::run(tmp, desc_sw128(xa + kk * 32), desc_sw128(wb + kk * 32));
            }
            wg_commit();
            wg_wait<0>();
            if (lane == 0) mbar_arrive(empty0 + 8 * s);
#pragma unroll
            for (int i = 0; i < BR / 2; ++i) acc[i] += tmp[i];
            continue;
        }
        wg_fence();
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) wg_mma<TY, BR>::run(acc, desc_sw128(xa + kk * 32), desc_sw128(wb + kk * 32));
        wg_commit();
        /* The previous stage's MMAs are done once at most this one is pending: hand its buffers back. */
        wg_wait<1>();
        if (it > 0 && lane == 0) mbar_arrive(empty0 + 8 * ((it - 1) % a.stages));
    }
    wg_wait<0>();

    /* Epilogue. Every consumer is past its last MMA before the stage buffers are reused. */
    named_sync(1, 256);
    const int qrow = wg * 64 + (warp & 3) * 16 + (lane >> 2);
    if (sizeof(T) == 4 || a.ks == 1) {
        T *tile = reinterpret_cast<T *>(sm);
        epi_stage<TY, BR>(acc, tile, a, kBQ, qrow, q0, n, lane);
        named_sync(1, 256);
        epi_store<TY>(tile, a, kBQ, q0, n, warp, lane, static_cast<T *>(a.y) + kz * a.kstride);
    } else { /* 16-bit partial sums stay fp32 (no bias: grad_input) */
        float *tile = reinterpret_cast<float *>(sm);
        epi_stage<WG_TF32, BR>(acc, tile, a, kBQ, qrow, q0, n, lane);
        named_sync(1, 256);
        epi_store<WG_TF32>(tile, a, kBQ, q0, n, warp, lane, static_cast<float *>(a.y) + kz * a.kstride);
    }
#else
    __trap(); /* not built for sm_90a: the host never launches it (wgmma_built) */
#endif
}

/* Register-A variant: the input read in its own layout, no transpose pass.
 *
 * The SS kernel above pays one extra read and write of x for its transpose; on the memory-bound stride-1
 * and stride-2 shapes (KernelBench 64/74/79) that pass costs about as much as the whole GEMM. Here A = the
 * input comes from registers, loaded from shared memory by the consumers themselves, so the tap shift is
 * just an address offset (any integer) and the input is staged as it lies in x: per channel chunk, TMA
 * boxes of [kBK channels][win positions] (no swizzle), one per 128 block positions. Row pitch win is 8
 * (mod 32) words (fp32) or 16 (mod 128) bytes (16-bit): the A fragment loads (lanes: 8 positions x 4
 * channel rows) hit 32 distinct banks. Where TMA cannot address x's rows one by one (a row pitch that is
 * not a 16-byte multiple: the stride-1 grad_input reads grad_y, 65538 values per row on KernelBench 64)
 * and every stored output reads inside its row, TMA reads groups of 2 or 4 rows (WgArgs::xg, Session 18).
 * Elsewhere each producer thread sends one box row by a bulk copy of its 16-byte-aligned span (XS_BULK). The rows then
 * sit at their address mod 16 in the stage; with a row pitch P = L*es (mod 16) that offset is the same
 * for every row of a box (row r's offset is c0 + r*L*es mod 16), so the consumers add one per-chunk
 * constant c0 and read the layout as before (rows P apart; P cannot keep all 32 banks distinct then: up
 * to 2-way conflicts). Boxes at the row ends (zero fill) are copied element by element. The producer's
 * 8-byte cp.async into the dense layout (session 7) stays for A/B (CONVT1D_WGMMA_RS_CPASYNC=1). In BI mode (strided grad_input, run_rs_bi) the input is
 * grad_y, copied row segment by row segment with cp.async and read as its s*C_out phase channels.
 * B = the packed weights of every tap of the chunk, one TMA box [T][BR][kBK] (K-major, 128-byte
 * swizzle) as in the SS kernel. One stage = one channel chunk, all taps.
 *
 * Block: BQ = 128*MQ positions (two consumer warpgroups of 64*MQ, MQ m64 tiles each) x BR rows, and a
 * producer warpgroup that gives its registers to the consumers (setmaxnreg: 9 warps would cap every
 * thread at 168 registers, too few for 128 accumulators plus fragments). Persistent: each block walks
 * tiles blockIdx.x, + gridDim.x, ...; the stage ring runs on across tiles, so the producer loads the
 * next tile while the consumers store this one. The epilogue writes straight from the accumulators (a
 * warp's store covers 8 consecutive positions of 4 rows: whole 32-byte sectors in fp32), keeping shared
 * memory for the ring. The A fragments are double-buffered across k-steps: step k+1's loads run while
 * step k's MMAs do (wait_group 1 after each commit). WG_TF32X3 splits A in registers (big = tf32(v),
 * small = tf32(v - big)) and sums each chunk's products in fresh registers, as the SS kernel per stage.
 * Options chosen by the host (rs_launch, measured in session 8): the weights of every chunk resident in
 * shared memory for the whole block (the stages then carry the input only), and a staged epilogue (each
 * warpgroup's tile written to shared memory, rows sent by bulk copies that drain during the next tile).
 * The fragments are read with ld.shared from 32-bit addresses and the waits sleep (suspend-time hint):
 * as generic loads and polling waits the kernel was issue-bound (run 46). */
constexpr int kThreadsRS = 3 * 128;
/* Named barriers of the register-A kernel: 1, 2 (each warpgroup's staged tile), 3 (the joint staged tile), and from
 * kPpoBar0 kPpoBars per consumer warpgroup ordering ping-pong tiles (WgArgs::ppo_k); 16 in all. */
constexpr int kPpoBar0 = 4, kPpoBars = 6;
constexpr int kFillKeyOff = 512; /* bytes after bar_off (the barriers take at most 200 of its 1024: full, empty, ready x 8, wres) */


#if CONVT1D_WG_DEVICE
/* fwd_wgmma_rs_kernel RX: the rounding warps' loop (96 threads, t = 0..95). Stage s's nv 16-byte pieces from x0 + s*sb
 * (its input boxes) each get half a TF32 ulp added, once the stage is full; then the thread arrives on the stage's ready
 * barrier. The proxy fence orders these generic stores before the TMA's later refill of the stage. */
__device__ __noinline__ void round_boxes_tf32(uint32_t full0, uint32_t rdy0, uint32_t x0, int sb, int stages, int nv,
                                              int n_it, int t) {
    for (int it = 0; it < n_it; ++it) {
        const int s = it % stages;
        mbar_wait(full0 + 8 * s, (it / stages) & 1);
        const uint32_t xb = x0 + s * sb;
        for (int v = t; v < nv; v += 96) {
            uint32_t w0, w1, w2, w3;
            asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w0), "=r"(w1), "=r"(w2), "=r"(w3) : "r"(xb + 16 * v));
            asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(xb + 16 * v), "r"(w0 + 0x1000u), "r"(w1 + 0x1000u),
                         "r"(w2 + 0x1000u), "r"(w3 + 0x1000u)
                         : "memory");
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        mbar_arrive(rdy0 + 8 * s);
    }
}
#endif

template <int TY, int BR, int MQ, bool BI, bool PAIRS, bool VIEW, bool RX, bool LEAN = false>
__global__ void __launch_bounds__(kThreadsRS, 1)
    fwd_wgmma_rs_kernel(const __grid_constant__ CUtensorMap tmx, const __grid_constant__ CUtensorMap tmw, WgArgs a) {
#if CONVT1D_WG_DEVICE
    typedef wg_type<TY> E;
    typedef typename E::T T;
    constexpr bool X3 = TY == WG_TF32X3;
    constexpr bool HALF = sizeof(T) == 2;
    /* PAIRS (16-bit forward, not BI): a warp's MMA rows g and g + 8 stand for positions 2g and 2g + 1 instead of
     * g and g + 8, so a thread holds neighbours: its A pairs come in one 32-bit load where the tap shift is even,
     * and its two outputs per row go out in one 32-bit store (whole 32-byte sectors per row and instruction). */
    static_assert(!PAIRS || (HALF && !BI), "position pairs: 16-bit forward only");
    /* RX (TF32 forward, TMA staging only: the host's rule, WgArgs::rx): the producer warpgroup's warps 1-3, idle while
     * warp 0's one thread issues the TMA copies, round each stage's input boxes to TF32 in place (+ half an ulp; the
     * MMA ignores the 13 low bits) and then arrive on the stage's ready barrier, which the consumers wait for after
     * the full one. The fragments are then plain loads, issued a k-step ahead (PREF) as in 16-bit: where each use
     * rounded, the adds waited on the loads (run 214) and loads ahead made them wait behind the MMAs (run 215).
     * Instantiated for 64-row tiles only, and taken by default on stride-1 layers (run_rs: KernelBench 74 3% faster; the
     * 256-row phase-merged layers lose ~10%, their stages having no room for the pass). ptxas spills 20-84 bytes in three
     * of the four RX kernels, in the producer warpgroup (its TMA issue loop, around the 64-bit tile-index divisions'
     * calls; not without this branch, and neither a non-inlined rounding loop nor a host-side stage count changed it):
     * measured with them. */
    static_assert(!RX || (TY == WG_TF32 && !BI), "rounded input boxes: TF32 forward only");
    /* LEAN (Session 38): the stride-1 forward with TMA staging and direct stores only (rs_launch's rule, WgArgs::lean),
     * compiled without the other input stagings, the staged epilogue and the phase-merged stores: 4904 instructions
     * against 7696 in the 16-bit 64x2 pairs kernel, 3264 against 8472 in TF32 64x2. Instantiated for 64x2 tiles and
     * TF32 128x2 (launch_rs_v). H200, rotated in one process, ms, lean / full: run 387, KernelBench 74 fp16 0.423 /
     * 0.435, bf16 0.411 / 0.418, its grad_input bf16 0.496 / 0.502; TF32 0.579 / 0.579 (grad_input 0.857 / 0.826) until
     * its fragments were loaded a k-step ahead (PREF below), run 392: 0.540 / 0.558, grad_input 0.743 / 0.801. The 128x2
     * lean kernels lost or tied without PREF (run 387, KernelBench 64: fp16 1.171 / 1.092, bf16 1.122 / 1.064, TF32
     * 1.910 / 1.939); with it (Session 39, run 394) TF32 1.777 / 1.816, grad_input 1.787 / 1.944, but the 16-bit 128x2
     * lean kernels spill (32 bytes) and lost (fp16 1.251 / 1.089, bf16 1.242 / 1.083): not built. */
    static_assert(!LEAN || (!BI && !RX && !VIEW && TY != WG_TF32X3 && PAIRS == (sizeof(T) == 2)),
                  "lean kernel: TF32 or 16-bit pairs, stride-1 forward");
    constexpr int GP = PAIRS ? 2 : 1, HP = PAIRS ? 1 : 8; /* row g at position GP*g, row g + 8 HP positions on */
    constexpr int kBK = kRow / (int)sizeof(T); /* channels per chunk */
    /* Ping-pong (pp, MQ = 2): the consumer warpgroups take alternate tiles of 64*MQ positions, one input
     * box each, so that one's epilogue overlaps the other's MMAs; else both share a tile of 128*MQ. */
    const bool PP = MQ == 2 && a.pp;
    const int BQ = (PP ? 64 : 128) * MQ, NBOX = PP ? MQ / 2 : MQ;
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char *sm = (unsigned char *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = smem_addr(sm);
    const int WB = a.T * BR * kRow;              /* one half of the weights of a stage */
    const int CW = WB * (X3 ? 2 : 1);            /* the weights of one chunk */
    const int XOFF = a.wres ? 0 : CW;            /* the input boxes follow the weights in a stage */
    const int XB = ((BI ? a.grpc : kBK) * a.xpitch + 15) & ~15; /* one input box */
    const bool XTMA = LEAN || a.xstage == XS_TMA;
    /* The x rows of chunk c's boxes of the tile at (n, q0): forward, channels c*kBK.. from position q0 - hal;
     * BI, the grad_y rows co = c*kBK/gs.. from element (q0 - hal + woff)*gs - gp - gsh. */
    auto box_rows = [&](int n, int q0, int c) {
        RowWin r;
        if constexpr (BI) {
            const int cf = c * kBK / a.gs;
            r.row0 = (int64_t)n * (VIEW ? a.gn : a.gcout) + cf;
            r.valid = a.gcout - cf;
            r.nrows = a.grpc;
            r.e0 = ((int64_t)q0 - a.hal + a.woff) * a.gs - a.gp - a.gsh;
            r.ebox = 128 * a.gs;
            r.total = VIEW ? (int64_t)(a.N - 1) * a.gn + a.gcout : (int64_t)a.N * a.gcout; /* the rows of the view */
        } else {
            r.row0 = (int64_t)n * (VIEW ? a.xn : a.cin) + (int64_t)c * kBK;
            r.valid = a.cin - c * kBK;
            r.nrows = kBK;
            r.e0 = (int64_t)q0 - a.hal;
            r.ebox = 128;
            r.total = VIEW ? (int64_t)(a.N - 1) * a.xn + a.cin : (int64_t)a.N * a.cin; /* the rows of the view */
        }
        return r;
    };
    const uint32_t full0 = sbase + a.bar_off, empty0 = full0 + a.stages * 8, wbar = empty0 + a.stages * 8;
    const uint32_t rdy0 = wbar + 8; /* RX: the stages' ready barriers */
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int q_tiles = a.q_tiles, r_tiles = a.r_tiles;
    const int64_t tiles = (int64_t)q_tiles * r_tiles * a.N;

    if (tid == 0) {
        for (int s = 0; s < a.stages; ++s) {
            /* TMA: one arrival (the expect_tx); cp.async staging: + one per producer thread. */
            mbar_init(full0 + 8 * s, XTMA ? 1 : 1 + 128);
            mbar_init(empty0 + 8 * s, PP ? 4 : 8); /* the consumer warps of the stage's tile */
            if (RX) mbar_init(rdy0 + 8 * s, 96);   /* every thread of the rounding warps */
        }
        if (a.wres) mbar_init(wbar, 1);
        if (!LEAN && a.stg_off >= 0) { /* the staged epilogue's fill keys, one per warpgroup: no fill yet */
            reinterpret_cast<int *>(sm + a.bar_off + kFillKeyOff)[0] = -1;
            reinterpret_cast<int *>(sm + a.bar_off + kFillKeyOff)[1] = -1;
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (warp >= 8) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 56;" ::: "memory");
        /* Producer: for every tile, stage = channel chunk c: every tap's weights (TMA), then the MQ input
         * boxes (TMA, or 8-byte cp.async by the 4 producer warps into the same dense layout). */
        const int ptid = tid - 256;
        if (!XTMA || ptid == 0) {
            if (ptid == 0) {
                asm volatile("prefetch.tensormap [%0];" ::"l"(&tmw) : "memory");
                if (XTMA) asm volatile("prefetch.tensormap [%0];" ::"l"(&tmx) : "memory");
            }
            /* The forward's weight pack may still be running: rs_launch launches this kernel as its programmatic
             * dependent (the pack ends each block with pdl_trigger). Every read of global memory below waits here. */
            pdl_wait();
            if (ptid == 0) {
                if (a.wres) { /* the block's row tile: blockIdx.x mod r_tiles for every tile it takes */
                    const int rt = blockIdx.x % r_tiles;
                    mbar_expect_tx(wbar, (uint32_t)(a.nchunk * CW));
                    for (int c = 0; c < a.nchunk; ++c) {
                        tma_load_3d(sbase + a.wr_off + c * CW, &tmw, wbar, c * kBK, rt * BR, 0);
                        if (X3) tma_load_3d(sbase + a.wr_off + c * CW + WB, &tmw, wbar, c * kBK, rt * BR, a.T);
                    }
                }
            }
            constexpr int EW = 8 / (int)sizeof(T); /* elements per 8-byte word */
            int it = 0;
            for (int64_t tl = blockIdx.x; tl < tiles; tl += gridDim.x) {
                int64_t rest;
                const int rt = tile_rt(tl, r_tiles, (int64_t)q_tiles * a.N, LEAN ? 0 : a.rgrp, rest); /* LEAN: row tiles fastest */
                const int q0 = a.qa + (int)(rest % q_tiles) * BQ, n = (int)(rest / q_tiles);
                for (int c = 0; c < a.nchunk; ++c, ++it) {
                    const int s = it % a.stages;
                    if (it >= a.stages) mbar_wait(empty0 + 8 * s, ((it / a.stages) + 1) & 1);
                    const uint32_t st = sbase + s * a.sb, bar = full0 + 8 * s;
                    if (ptid == 0) {
                        /* TMA bytes: the weights, and the input boxes only when TMA brings them. */
                        mbar_expect_tx(bar, XTMA ? a.txb : XOFF);
                        if (!a.wres) {
                            tma_load_3d(st, &tmw, bar, c * kBK, rt * BR, 0);
                            if (X3) tma_load_3d(st + WB, &tmw, bar, c * kBK, rt * BR, a.T);
                        }
                    }
                    if (XTMA) {
                        /* xg boxes of gr rows each (grouped rows; never in BI mode, whose input is staged otherwise) */
                        const int xg = BI ? 1 : a.xg, gr = kBK / xg, h = a.hal - (a.T - 1) * a.dj;
#pragma unroll
                        for (int b = 0; b < NBOX; ++b)
                            for (int m = 0; m < xg; ++m)
                                tma_load_3d(st + XOFF + b * XB + m * gr * a.xpitch, &tmx, bar,
                                            q0 + 128 * b - a.hal + group_col(m, a.L, h, 16 / (int)sizeof(T)), c * gr, n);
                        continue;
                    }
                    if (BI && a.xstage == XS_BULK) {
                        stage_rows_bulk<TY>(static_cast<const T *>(a.x), a.gL, a.wcols, a.xpitch, st + XOFF, XB, NBOX,
                                            box_rows(n, q0, c), bar, ptid, lane);
                        continue;
                    }
                    if constexpr (BI) {
                        /* Box row r = grad_y row co = c*kBK/gs + r: gpitch elements from e0, 4-byte words
                         * (whole words inside or outside the row: gL and e0 even for 16-bit). */
                        constexpr int EW4 = 4 / (int)sizeof(T);
                        const int rpc = a.grpc, wpr = a.gpitch / EW4, co_first = c * kBK / a.gs;
                        for (int rr = ptid >> 5; rr < NBOX * rpc; rr += 4) {
                            const int b = rr / rpc, row = rr - b * rpc, co = co_first + row;
                            const int64_t e0 = ((int64_t)q0 + 128 * b - a.hal + a.woff) * a.gs - a.gp - a.gsh;
                            const T *grow = static_cast<const T *>(a.x) + ((int64_t)n * (VIEW ? a.gn : a.gcout) + co) * a.gL;
                            const uint32_t drow = st + XOFF + b * XB + row * a.xpitch;
                            for (int wd = lane; wd < wpr; wd += 32) {
                                const int64_t e = e0 + wd * EW4;
                                const bool ok = co < a.gcout && e >= 0 && e < a.gL;
                                const T *src = ok ? grow + e : static_cast<const T *>(a.x);
                                asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(drow + wd * 4), "l"(src),
                                             "r"(ok ? 4 : 0)
                                             : "memory");
                            }
                        }
                        asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
                        continue;
                    }
                    if (a.xstage == XS_BULK) {
                        stage_rows_bulk<TY>(static_cast<const T *>(a.x), a.L, a.wcols, a.xpitch, st + XOFF, XB, NBOX,
                                            box_rows(n, q0, c), bar, ptid, lane);
                        continue;
                    }
                    /* Warp pw of the producer stages rows pw, pw + 4, ... of the MQ boxes, lanes along each
                     * row in 8-byte words; zero outside the tensor (src-size 0). A word is wholly inside or
                     * outside a row: L and the window start are multiples of EW. */
                    const T *xb = static_cast<const T *>(a.x) + ((int64_t)n * (VIEW ? a.xn : a.cin) + (int64_t)c * kBK) * a.L;
                    for (int rr = ptid >> 5; rr < NBOX * kBK; rr += 4) {
                        const int b = rr / kBK, row = rr - b * kBK; /* kBK: a power of two */
                        const bool rok = c * kBK + row < a.cin;
                        const int64_t pos0 = (int64_t)q0 + 128 * b - a.hal;
                        const T *srow = xb + (int64_t)row * a.L;
                        const uint32_t drow = st + XOFF + b * XB + row * a.xpitch;
                        for (int e = lane * EW; e < a.win; e += 32 * EW) {
                            const int64_t pos = pos0 + e;
                            const bool ok = rok && pos >= 0 && pos < a.L;
                            const T *src = ok ? srow + pos : static_cast<const T *>(a.x);
                            asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(drow + e * (int)sizeof(T)),
                                         "l"(src), "r"(ok ? 8 : 0)
                                         : "memory");
                        }
                    }
                    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
                }
            }
        } else if (RX && ptid >= 32) {
            /* The rounding warps (RX above), over the block's stages in order: its tiles blockIdx.x, + gridDim.x, ...
             * times the chunks (the count from the host, WgArgs::rx_tq / rx_tr). */
            round_boxes_tf32(full0, rdy0, sbase + XOFF, a.sb, a.stages, NBOX * XB / 16,
                             (a.rx_tq + ((int)blockIdx.x < a.rx_tr)) * a.nchunk, ptid - 32);
        }
        return;
    }
    asm volatile("setmaxnreg.inc.sync.aligned.u32 224;" ::: "memory");

    const int wg = warp >> 2, wq = warp & 3, g = lane >> 2, t = lane & 3;
    /* Tile mq of this warpgroup: tile positions pb = wgp + 64*mq .. +64, in box pb / 128; the
     * thread's first row (position pb + 16*wq + g) sits at window column hal + pb % 128 + 16*wq + g. */
    int xoff[MQ]; /* byte offset in a stage of (channel row 0, that column) */
    const int wgp = PP ? 0 : 64 * wg * MQ; /* the warpgroup's first position in its tile */
    /* BI: element (c, col) sits at row c / gs, index gsh + col*gs + c % gs; the position step is gs. */
    const int cstep = BI ? a.gs : 1;
#pragma unroll
    for (int mq = 0; mq < MQ; ++mq) {
        const int pb = wgp + 64 * mq;
        xoff[mq] = XOFF + (pb / 128) * XB + ((BI ? a.gsh : 0) + (a.hal + pb % 128 + 16 * wq + GP * g) * cstep) * (int)sizeof(T);
    }
    /* BI: byte offsets of the thread's channels in a k-step (fp32 t, t+4; 16-bit 2t, 2t+1, 2t+8, 2t+9),
     * k-step kk adds kk*KSTEP channels. Channel c of chunk ch is (co, b) = (c / gs, c % gs) of the whole
     * grad_y, at box row co - ch*kBK/gs: recomputed per chunk (a chunk need not start a grad_y row). */
    int bofs[BI ? 4 : 1][BI ? 4 : 1];
    auto set_bofs = [&](int ch) {
        if constexpr (BI) {
            const int cb = ch * kBK, co_first = cb / a.gs;
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int cg = cb + kk * (HALF ? 16 : 8) + (HALF ? 2 * t + (e & 1) + 8 * (e >> 1) : t + 4 * (e & 1));
                    const int co = cg / a.gs;
                    bofs[kk][e] = (co - co_first) * a.xpitch + (cg - co * a.gs) * (int)sizeof(T);
                }
        }
    };
    const int rowb = a.xpitch; /* bytes between channel rows of a box */
    /* The thread's channel rows in a k-step: fp32 t and t + 4 (k8); 16-bit pairs (2t, 2t+1), (2t+8, 2t+9) (k16). */
    const int cofs = (HALF ? 2 * t : t) * rowb;
    constexpr int KSTEP = HALF ? 16 : 8;
    const int hop = (HALF ? 8 : 4) * rowb; /* to the fragment's second channel row (pair) */
    /* Byte offset of k-step kk's channel rows in a box: kk*KSTEP rows on, plus its grouped box's column shift
     * (WgArgs::xg; 0 for plain boxes). */
    int kofs[4];
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
        const int m = kk * KSTEP * a.xg / kBK, h = a.hal - (a.T - 1) * a.dj;
        kofs[kk] = kk * KSTEP * rowb + (!BI && m ? (m * a.L - group_col(m, a.L, h, 16 / (int)sizeof(T))) * (int)sizeof(T) : 0);
    }

    /* LDM (16-bit, no position pairs, not BI): a tap whose shift sh is a multiple of 8 positions keeps every 8-position
     * row piece of the box 16-byte aligned (hal, the pitch and the stage offsets are 16-byte multiples), so a k-step's
     * fragment is one ldmatrix.x4.trans: lane l addresses channel row (l % 8) + 8 (l / 16) at the fragment's positions
     * + 8 ((l / 8) % 2). The other taps keep the 16-bit loads and their pairing (8 loads + 4 merges per fragment). */
    constexpr bool LDM = HALF && !PAIRS && !BI;
    const bool ldm_on = LDM && XTMA && a.xg == 1 && a.ldm;
    [[maybe_unused]] uint32_t ldm_off[LDM ? MQ : 1] = {};
    if constexpr (LDM) {
#pragma unroll
        for (int mq = 0; mq < MQ; ++mq) {
            const int pb = wgp + 64 * mq;
            ldm_off[mq] = (uint32_t)(XOFF + (pb / 128) * XB + (a.hal + pb % 128 + 16 * wq + 8 * ((lane >> 3) & 1)) * 2 +
                                     ((lane & 7) + 8 * (lane >> 4)) * rowb);
        }
    }

    /* TF32 operands: rounded to nearest (ties away, as cvt.rna) by adding half a TF32 ulp; the MMA
     * ignores the 13 low bits. Split TF32 clears them: big is exact, small = tf32(v - big). */
    auto split = [&](float v, uint32_t &b, uint32_t &sm_) {
        if constexpr (X3) {
            const float big = E::op_fast(v);
            b = __float_as_uint(big);
            sm_ = __float_as_uint(E::op_fast(v - big));
        } else {
            b = RX ? __float_as_uint(v) : __float_as_uint(v) + 0x1000u; /* RX: rounded in shared memory */
        }
    };
    /* The A fragment of tile mq, tap shift sh (columns), k-step kk of the stage at shared address sp:
     * registers a0..a3 in the m16n8k8 (tf32) / m16n8k16 (16-bit) A layout: (row g, k lo), (row g+8,
     * k lo), (row g, k hi), (row g+8, k hi). X3: big halves into ab, small into as. In two steps: lds_a issues the
     * shared-memory loads into raw registers r, mk_a assembles them into the fragment (16-bit pairs, TF32 rounding),
     * so that the next k-step's loads are in flight while this one's MMAs issue (run 214: the PRMT / rounding add
     * waiting on its loads was the largest stall of the register-A forward, upsample_x8 bf16 21% of the samples). */
    /* PAIRS word alignment: AL 1 = every pair of the call is one aligned word, 0 = none is, 2 = test here (A/B; r[4]
     * then tells mk_a which: kWordsTaken where the words were loaded, a 16-bit value otherwise). */
    constexpr uint32_t kWordsTaken = 0xffffffffu;
    /* PREF: the loads run a k-step ahead in 16-bit, except in the 128x2 kernels with position pairs or in BI mode,
     * where the raw registers beside two accumulator tiles made ptxas spill; elsewhere they run in turn. Run 215
     * (means of three alternating processes, ms, ahead / in turn): KernelBench 74 fp16 0.421 / 0.439, bf16 0.417 /
     * 0.435, hifigan_up4 bf16 0.678 / 0.692, hifigan_up2 bf16 0.725 / 0.743, codec_dec_s5 bf16 0.292 / 0.297, the
     * stride-8 layers within 1%; but TF32 KernelBench 74 0.741 / 0.711 (its rounding adds then wait behind the
     * MMA issue instead of the loads), so fp32 keeps them in turn. */
    /* The lean TF32 kernel loads ahead too (run 392, above): in the full one, on the H200, the MMA loop holds 54% of
     * KernelBench 74's stall samples, most of them the rounding adds waiting on their loads (run 391; run 215 had found
     * loads ahead slower on the H100's full kernel, with RX off and the staged epilogue), its 128x2 build as well (run
     * 394, KernelBench 64 TF32, above). The 16-bit 128x2 pairs kernels keep their loads in turn even when lean: loads
     * ahead spilled there too (run 394). */
    constexpr bool PREF = HALF ? !(MQ == 2 && BR == 128 && (PAIRS || BI)) : RX || LEAN;
    auto lds_a = [&](uint32_t sp, int mq, int sh, int kk, uint32_t(&r)[8], auto al_const) {
        [[maybe_unused]] constexpr int AL = decltype(al_const)::value;
        if constexpr (LDM && AL == 3) { /* ldmatrix (see LDM above) */
            ldsm_x4_trans(sp + ldm_off[mq] - (uint32_t)(sh * 2) + kofs[kk], r[0], r[1], r[2], r[3]);
            return;
        }
        if constexpr (BI) {
            const uint32_t p = sp + xoff[mq] - sh * cstep * (int)sizeof(T);
            const int p8 = 8 * cstep * (int)sizeof(T); /* 8 positions on */
            if constexpr (HALF) {
                if (AL == 1 || (AL == 2 && a.pair32)) { /* channels 2t, 2t+1 (even gs): phases b, b+1 of one grad_y row */
                    r[0] = lds_u32(p + bofs[kk][0]);
                    r[1] = lds_u32(p + bofs[kk][0] + p8);
                    r[2] = lds_u32(p + bofs[kk][2]);
                    r[3] = lds_u32(p + bofs[kk][2] + p8);
                    return;
                }
                auto ld = [&](int e, int extra) { return lds_u16(p + bofs[kk][e] + extra); };
                r[0] = ld(0, 0), r[1] = ld(1, 0), r[2] = ld(0, p8), r[3] = ld(1, p8);
                r[4] = ld(2, 0), r[5] = ld(3, 0), r[6] = ld(2, p8), r[7] = ld(3, p8);
            } else {
                r[0] = lds_u32(p + bofs[kk][0]), r[1] = lds_u32(p + bofs[kk][0] + p8);
                r[2] = lds_u32(p + bofs[kk][1]), r[3] = lds_u32(p + bofs[kk][1] + p8);
            }
            return;
        }
        const uint32_t p = sp + xoff[mq] - sh * (int)sizeof(T) + kofs[kk] + cofs;
        if constexpr (PAIRS) {
            /* Positions 2g, 2g + 1 of a channel in one word where both channel rows' words are 4-byte aligned
             * (bulk-staged rows of odd length sit 2 (mod 4) bytes apart: then every load takes the 16-bit path). */
            if (AL == 1 || (AL == 2 && ((p | (uint32_t)rowb) & 2) == 0)) {
                r[0] = lds_u32(p), r[1] = lds_u32(p + rowb), r[2] = lds_u32(p + hop), r[3] = lds_u32(p + hop + rowb);
                if (AL == 2) r[4] = kWordsTaken;
            } else {
                r[0] = lds_u16(p), r[1] = lds_u16(p + rowb), r[2] = lds_u16(p + 2), r[3] = lds_u16(p + rowb + 2);
                r[4] = lds_u16(p + hop), r[5] = lds_u16(p + hop + rowb), r[6] = lds_u16(p + hop + 2);
                r[7] = lds_u16(p + hop + rowb + 2);
            }
        } else if constexpr (HALF) {
            r[0] = lds_u16(p), r[1] = lds_u16(p + rowb), r[2] = lds_u16(p + 16), r[3] = lds_u16(p + rowb + 16);
            r[4] = lds_u16(p + hop), r[5] = lds_u16(p + hop + rowb), r[6] = lds_u16(p + hop + 16);
            r[7] = lds_u16(p + hop + rowb + 16);
        } else {
            r[0] = lds_u32(p), r[1] = lds_u32(p + 32), r[2] = lds_u32(p + hop), r[3] = lds_u32(p + hop + 32);
        }
    };
    auto mk_a = [&](const uint32_t(&r)[8], uint32_t(&ab)[4], uint32_t(&as)[4], auto al_const) {
        [[maybe_unused]] constexpr int AL = decltype(al_const)::value;
        if constexpr (HALF && AL == 3) { /* ldmatrix: the fragment as loaded */
#pragma unroll
            for (int e = 0; e < 4; ++e) ab[e] = r[e];
        } else if constexpr (HALF) {
            bool words = false; /* r[0..3] are the fragment's 32-bit words as loaded (pairs) */
            if constexpr (BI) words = AL == 1 || (AL == 2 && a.pair32);
            if constexpr (PAIRS) words = AL == 1 || (AL == 2 && r[4] == kWordsTaken);
            if (words && BI) {
#pragma unroll
                for (int e = 0; e < 4; ++e) ab[e] = r[e];
            } else if (words) { /* PAIRS: positions 2g, 2g + 1 of two channel rows */
                ab[0] = __byte_perm(r[0], r[1], 0x5410);
                ab[1] = __byte_perm(r[0], r[1], 0x7632);
                ab[2] = __byte_perm(r[2], r[3], 0x5410);
                ab[3] = __byte_perm(r[2], r[3], 0x7632);
            } else {
#pragma unroll
                for (int e = 0; e < 4; ++e) ab[e] = r[2 * e] | (r[2 * e + 1] << 16);
            }
        } else {
#pragma unroll
            for (int e = 0; e < 4; ++e) split(__uint_as_float(r[e]), ab[e], as[e]);
        }
    };

    if (a.wres) mbar_wait(wbar, 0);
    if (wg == 1 && a.skew_ns > 0) __nanosleep((unsigned)a.skew_ns);
    /* Ordered ping-pong (PPO: WgArgs::ppo, stages S <= the chunks of a tile). The ring runs through the block's tiles
     * in order, alternately this warpgroup's and the other's, and a full barrier's parity tells only its last phase
     * from the one before: position i may be waited for only once the fill of position i - S has completed. Within a
     * tile, from its chunk S on, i - S is this warpgroup's own and already passed. Chunk c < S needs the other
     * warpgroup's previous tile to have passed its chunk nchunk - S + c. Fills are issued in order but TMA may complete
     * them out of order, so a later position passed says nothing of an earlier one (run 347: an unspecified launch
     * failure when the next tile was let in once chunk nchunk - S had passed): each needed chunk is told apart. The
     * other warpgroup arrives on named barrier ppo_bar(this, k) once it has passed its chunk nchunk - K + k's full
     * wait, and this warpgroup syncs there before its chunk k, for k < K = WgArgs::ppo_k (K <= S; with K < S the last
     * sync covers the chunks up to S - 1 too). A barrier is used again only after its sync completed: the other
     * warpgroup's next arrival there needs the fill of a position S or more past this warpgroup's chunk k, which this
     * warpgroup releases only after the sync (K + S <= 2 nchunk). K = 1 (CONVT1D_WGMMA_RS_PPO_K=1) is Session 32's
     * form: the next tile starts once the last chunk has passed (run 348: KernelBench 64 TF32 1.881 ms, 1.850 with
     * the next tile let in S chunks early). So one warpgroup's epilogue and last chunks run beside the other's MMAs;
     * without the order, ping-pong needs nchunk + 1 stages (rs_launch). */
    const bool PPO = PP && a.ppo;
    auto ppo_bar = [](int w, int k) { return kPpoBar0 + kPpoBars * w + k; };
    for (int64_t tl = blockIdx.x + (PP ? wg : 0) * (int64_t)gridDim.x; tl < tiles; tl += (PP ? 2 : 1) * (int64_t)gridDim.x) {
        int it = (int)((tl - blockIdx.x) / gridDim.x) * a.nchunk; /* the producer's stage sequence */
        /* PPO: this tile waits for the other warpgroup's previous one (not on the block's first tile); the block's next
         * tile (the other's) waits for this one */
        const int ppo_in = PPO && tl >= (int64_t)blockIdx.x + gridDim.x ? a.ppo_k : 0;
        const int ppo_out = PPO && tl + gridDim.x < tiles ? a.nchunk - a.ppo_k : a.nchunk;
        int64_t rest;
        const int rt = tile_rt(tl, r_tiles, (int64_t)q_tiles * a.N, LEAN ? 0 : a.rgrp, rest); /* LEAN: row tiles fastest */
        const int q0 = a.qa + (int)(rest % q_tiles) * BQ, n = (int)(rest / q_tiles);
        float acc[MQ][BR / 2];
#pragma unroll
        for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
            for (int i = 0; i < BR / 2; ++i) acc[mq][i] = 0.f;

        for (int c = 0; c < a.nchunk; ++c, ++it) {
            const int s = it % a.stages;
            if (c < ppo_in) named_sync(ppo_bar(wg, c), 256);
            set_bofs(c);
            /* XS_BULK: every box row starts c0 bytes into its slot (the producer's formula). */
            const uint32_t c0 = !LEAN && a.xstage == XS_BULK ? box_rows(n, q0, c).c0(a.L, (int)sizeof(T)) : 0u;
            mbar_wait(full0 + 8 * s, (it / a.stages) & 1);
            /* RX: the rounding warps' ready barrier too. The full wait above stays: it is what makes the stage's TMA
             * bytes (the weights) visible to these threads directly, and by then it has completed (one try_wait). */
            if constexpr (RX) mbar_wait(rdy0 + 8 * s, (it / a.stages) & 1);
            /* PPO: the block's next tile (the other warpgroup's) may wait for its chunk c - ppo_out */
            if (c >= ppo_out) named_arrive(ppo_bar(1 - wg, c - ppo_out), 256);
            const uint32_t sp = sbase + s * a.sb + c0;
            const uint32_t wb = a.wres ? sbase + a.wr_off + c * CW : sbase + s * a.sb;
            float tmp[X3 ? MQ : 1][X3 ? BR / 2 : 1];
            if constexpr (X3) {
#pragma unroll
                for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                    for (int i = 0; i < BR / 2; ++i) tmp[mq][i] = 0.f;
            }
            /* Every tap's KS k-steps of the chunk (KS a constant: a data-dependent exit from the unrolled k-steps
             * made ptxas serialize the MMAs). */
            auto taps = [&](auto ks_const) {
                constexpr int KS = decltype(ks_const)::value;
#pragma unroll 1
                for (int j = 0; j < a.T; ++j) {
                    const int sh = j * a.dj;
                    const uint32_t wj = wb + j * BR * kRow;
                    auto ksteps = [&](auto al_const) {
                        uint32_t r[MQ][8]; /* raw loads of a k-step's fragments (lds_a, mk_a) */
                        if constexpr (PREF) {
                            /* RX: no MMA pending when a tap's first fragments load. A register-A MMA reads its
                             * fragment registers until a wait retires it; within a tap's unrolled k-steps ptxas keeps
                             * them apart, but across the tap loop's back-edge it gave the previous tap's last
                             * fragment registers to these loads, where the fragments are the loads themselves: run
                             * 298 found RX outputs wrong (chunks of two k-steps: C_in 16, 48), with no ptxas warning.
                             * Run 299: KernelBench 74 0.646 ms with the wait, 0.640 without, 0.664 with RX off. The
                             * 16-bit ldmatrix taps (AL 3) have the same exposure after an ldmatrix tap (Session 28,
                             * dev/python/sass_wgmma_hazard.py; run 305 saw it in outputs): run_rs never lets two of
                             * them follow each other, since the same wait here cost 1.2% (run 306). Everywhere else
                             * ptxas kept the registers apart: tests/python/test_sass_hazard.py checks every build. */
                            if constexpr (RX) wg_wait<0>();
#pragma unroll
                            for (int mq = 0; mq < MQ; ++mq) lds_a(sp, mq, sh, 0, r[mq], al_const);
                        }
#pragma unroll
                        for (int kk = 0; kk < KS; ++kk) {
                            uint32_t ab[MQ][4], as[MQ][4];
                            if constexpr (!PREF) {
#pragma unroll
                                for (int mq = 0; mq < MQ; ++mq) lds_a(sp, mq, sh, kk, r[mq], al_const);
                            }
#pragma unroll
                            for (int mq = 0; mq < MQ; ++mq) mk_a(r[mq], ab[mq], as[mq], al_const);
                            if (PREF && kk + 1 < KS) { /* the next k-step's loads, in flight during this one's MMAs */
#pragma unroll
                                for (int mq = 0; mq < MQ; ++mq) lds_a(sp, mq, sh, kk + 1, r[mq], al_const);
                            }
                            wg_fence();
#pragma unroll
                            for (int mq = 0; mq < MQ; ++mq) {
                                if constexpr (X3) {
                                    wg_mma_rs<TY, BR>::run(tmp[mq], as[mq], desc_sw128(wj + kk * 32));
                                    wg_mma_rs<TY, BR>::run(tmp[mq], ab[mq], desc_sw128(wj + WB + kk * 32));
                                    wg_mma_rs<TY, BR>::run(tmp[mq], ab[mq], desc_sw128(wj + kk * 32));
                                } else {
                                    wg_mma_rs<TY, BR>::run(acc[mq], ab[mq], desc_sw128(wj + kk * 32));
                                }
                            }
                            wg_commit();
                            /* The MMAs of the previous step are done once at most this one is pending: its
                             * fragment registers may be reloaded. */
                            wg_wait<1>();
                        }
                    };
                    /* PAIRS: whether the pairs are aligned words is one answer per tap (the tile, k-step and channel-row
                     * offsets are 4-byte multiples; only the shift and a bulk-staged row's offset vary), so the test
                     * and its branch leave the loads (run 163: a test, a branch and a reconvergence per load, 7% of
                     * the stall samples on KernelBench 64 bf16). CONVT1D_WGMMA_RS_HOIST=0: the test per load (A/B). */
                    if constexpr (PAIRS || (BI && HALF)) { /* BI: the one-word pairs are one answer per launch */
                        const bool words = PAIRS ? (((sp - (uint32_t)(sh * (int)sizeof(T))) | (uint32_t)rowb) & 2) == 0
                                                 : a.pair32 != 0;
                        if (!a.hoist)
                            ksteps(std::integral_constant<int, 2>());
                        else if (words)
                            ksteps(std::integral_constant<int, 1>());
                        else
                            ksteps(std::integral_constant<int, 0>());
                    } else if constexpr (LDM) {
                        if (ldm_on && (sh & 7) == 0)
                            ksteps(std::integral_constant<int, 3>());
                        else
                            ksteps(std::integral_constant<int, 0>());
                    } else {
                        ksteps(std::integral_constant<int, 0>());
                    }
                }
            };
            /* A chunk whose input channels fill at most half of it (the forward's last chunk; 16-bit with C_in = 32,
             * KernelBench 74: every chunk) runs only the two k-steps that hold channels: the zero padding costs
             * neither fragment loads nor MMAs. */
            if (!BI && a.kskip && a.cin - c * kBK <= 2 * KSTEP)
                taps(std::integral_constant<int, 2>());
            else
                taps(std::integral_constant<int, 4>());
            wg_wait<0>();
            if (lane == 0) mbar_arrive(empty0 + 8 * s);
            if constexpr (X3) {
#pragma unroll
                for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                    for (int i = 0; i < BR / 2; ++i) acc[mq][i] += tmp[mq][i];
            }
        }

        /* Epilogue from the accumulators: acc[4i + u] (u = 0, 1) is row m = 8i + 2t + u at position
         * g, acc[4i + 2 + u] at g + 8 (of the warp's 16). */
        T *y = static_cast<T *>(a.y);
        /* Spare rows (forward, ps > 1; run_rs, Session 26): the rows ml >= RT = R*ps past a tile's whole channels hold
         * phase rows of the channels past r_tiles*R, the e-th such row (e counted over the tiles' spare rows in tile
         * order) being phase e % ps of channel r_tiles*R + e / ps. At most 8 spare rows per tile (run_rs), so they
         * sit in the last 8-row group (i = BR/8 - 1) only, and only that group's unrolled copy carries this code.
         * Stored one element each, straight from the accumulators (at most 8 of the tile's BR rows). Where run_rs
         * leaves them off, r_tiles*R >= cout and nothing is stored. */
        auto spare_row = [&](int i, int u, int ml, int RT) {
            if constexpr (!BI) {
                const int e = rt * (BR - RT) + (ml - RT), ce = e / a.ps, r = e - ce * a.ps;
                const int co = r_tiles * a.R + ce;
                if (co >= a.cout) return;
                const float bv = a.bias ? E::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
                const int o0 = (q0 + wgp + 16 * wq + GP * g) * a.ps + r - a.p;
                T *yr = y + (((int64_t)n * (VIEW ? a.yn : a.cout) + co) * a.L_out + o0);
#pragma unroll
                for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const int dd = (64 * mq + HP * h) * a.ps;
                        if ((unsigned)(o0 + dd) < (unsigned)a.L_out) yr[dd] = E::from_f(acc[mq][4 * i + 2 * h + u] + bv);
                    }
            }
        };
        if constexpr (!LEAN) if (a.stg_off >= 0) {
            /* Staged: each warpgroup writes its 64*MQ positions of every row into its own staged tile in output
             * order (row = channel col = m / ps, column = position*ps + r, r = m % ps: o = q*ps + r - p), each row
             * shifted by sh so that shared and global addresses agree mod 16; then one thread per channel sends the
             * row's aligned middle with a bulk copy (asynchronous: it drains while the next tile's MMAs run) and
             * its unaligned ends with plain stores. The tile is rewritten only after this warpgroup's previous
             * copies have read it (wait_group.read). ps = 1: row pitch 64*MQ + 16/es elements, 4 (mod 16) words,
             * so a warp's 4 rows x 8 positions hit distinct banks. ps > 1 (Session 19): whole 16-byte vectors of
             * the phase-interleaved rows, where one element per store used a quarter to a half of each sector. */
            /* PS: the phases per channel as a compile-time 1 (every stride-1 layer and the grad_input: the code
             * of the ps = 1 epilogue before Session 19) or 0 (read from a.ps). */
            auto staged = [&](auto PS) {
                constexpr bool PS1 = decltype(PS)::value == 1;
                const int ps = PS1 ? 1 : a.ps;
                const int cm = PS1 ? 1 : a.ps * a.os; /* columns per position */
                constexpr int VE = 16 / (int)sizeof(T);
                /* J (joint): the staged rows span both warpgroups' positions, this one's from column wgp */
                const bool J = PS1 && !BI && a.joint;
                const int co0 = rt * a.R, qw0 = q0 + (J ? 0 : wgp), RT = a.R * ps;
                const uint32_t pmag = ps > 1 ? 0xffffffffu / (uint32_t)ps + 1 : 0; /* ceil(2^32 / ps) */
                T *stg = reinterpret_cast<T *>(sm + a.stg_off) + (J ? 0 : wg * a.R * a.spitch);
                const int64_t rb = ((int64_t)n * (VIEW ? a.yn : a.cout) + co0) * a.L_out + (int64_t)qw0 * cm - a.p; /* (row 0, column 0) */
                const int Lm = a.L_out & (VE - 1);
                const int W = 64 * MQ * cm * (J ? 2 : 1); /* output columns of the staged rows */
                auto stg_sync = [&]() {
                    if (J)
                        named_sync(3, 256);
                    else
                        named_sync(1 + wg, 128);
                };
                const int64_t c0 = (int64_t)qw0 * cm - a.p;
                const int c_lo = c0 < 0 ? (int)-c0 : 0;
                const int c_hi = a.L_out - c0 < W ? (int)(a.L_out - c0) : W;
                /* One-phase layer (os > 1): the columns between the outputs hold the bias. The tile keeps them across
                 * tiles (the results rewrite only their own columns); refilled where the rows' shifts or channels
                 * change (KernelBench 79: once per warpgroup). The last fill's key sits in shared memory (as a
                 * register live across the loop it made the 16-bit 128x2 kernels spill); read before the barrier
                 * below, written after it. Position pairs are never taken there (run_rs), so their kernels leave it out. */
                int *fkey = reinterpret_cast<int *>(sm + a.bar_off + kFillKeyOff) + wg;
                const int key = (int)(rb & (VE - 1)) + VE * co0;
                const bool refill = !PS1 && !PAIRS && a.os > 1 && *fkey != key; /* one-phase layers take no pairs */
                asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
                stg_sync();
                if (refill) {
                    if ((tid & 127) == 0) *fkey = key;
                    for (int e = tid & 127; e < a.R * a.spitch; e += 128) {
                        const int co = co0 + e / a.spitch;
                        stg[e] = E::from_f(a.bias && co < a.cout ? E::to_f(static_cast<const T *>(a.bias)[co]) : 0.f);
                    }
                    stg_sync();
                }
#pragma unroll
                for (int i = 0; i < BR / 8; ++i) {
#pragma unroll
                    for (int u = 0; u < 2; ++u) {
                        const int ml = i * 8 + 2 * t + u;
                        int col = ml, r = 0;
                        if (ps > 1) {
                            col = (int)__umulhi((uint32_t)ml, pmag); /* ml / ps */
                            r = ml - col * ps;
                        }
                        const int co = co0 + col;
                        if (!PS1 && i == BR / 8 - 1 && ml >= RT) { /* i: a constant once unrolled */
                            spare_row(i, u, ml, RT);
                            continue;
                        }
                        if (ml >= RT || co >= a.cout) continue;
                        const float bv = a.bias ? E::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
                        const uint32_t row = smem_addr(stg + col * a.spitch + (int)((rb + (int64_t)col * Lm) & (VE - 1)) +
                                                       ((J ? wgp : 0) + 16 * wq + GP * g) * cm + r);
#pragma unroll
                        for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                            for (int h = 0; h < 2; ++h)
                                st_shared(row + (64 * mq + HP * h) * cm * (int)sizeof(T), E::from_f(acc[mq][4 * i + 2 * h + u] + bv));
                    }
                }
                asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
                stg_sync();
                for (int ml = J ? tid & 255 : tid & 127; ml < a.R && co0 + ml < a.cout && c_lo < c_hi; ml += J ? 256 : 128) {
                    const int64_t er = rb + (int64_t)ml * a.L_out; /* global element of column 0 */
                    const T *sr = stg + ml * a.spitch + (int)(er & (VE - 1));
                    int c = c_lo;
                    for (; c < c_hi && ((er + c) & (VE - 1)) != 0; ++c) y[er + c] = sr[c];
                    const int nb = (c_hi - c) / VE * VE;
                    if (nb > 0) {
                        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(y + er + c),
                                     "r"(smem_addr(sr + c)), "r"(nb * (int)sizeof(T))
                                     : "memory");
                        c += nb;
                    }
                    for (; c < c_hi; ++c) y[er + c] = sr[c];
                }
            };
            if (BI || (a.ps == 1 && a.os == 1))
                staged(std::integral_constant<int, 1>());
            else if constexpr (!BI)
                staged(std::integral_constant<int, 0>());
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            continue;
        }
        /* Direct: row m = (co, r) = (m / ps, m % ps) writes output o = q*ps + r - p. */
        const int RT = a.R * a.ps, co0 = rt * a.R;
        const int ob = (q0 + wgp + 16 * wq + GP * g) * a.ps - a.p; /* the thread's first output, r = 0 */
        /* Stride 1 with every output of the thread inside y (all but the edge tiles): constant offsets from one
         * pointer per row, no checks; the integer division by ps only where ps > 1 (run 48: the general form
         * was two thirds of KernelBench 64 bf16's instructions). */
        const uint32_t pmag = a.ps > 1 ? 0xffffffffu / (uint32_t)a.ps + 1 : 0; /* ceil(2^32 / ps) */
        const bool fast = a.ps == 1 && ob >= 0 && ob + 64 * (MQ - 1) + HP < a.L_out;
        /* Per-element stores, 4 rows x 8 consecutive positions per warp instruction (whole 32-byte sectors in
         * fp32). Staging 8-row groups through shared memory for 16/8-byte stores measured slower (run 37:
         * KernelBench 64 TF32 2.43 vs 1.88 ms, hifigan_up3 bf16 1.06 vs 0.76): its round trips and warp
         * syncs sit between this tile's MMAs and the next's, while these stores just stream out. The fast
         * case is its own loop: tested inside the row loop, ptxas kept one predicate bit per row (run 54).
         * At 256 rows the test stays inside (as its own loop there, ptxas spilled 20 bytes). */
        if (BR <= 128 && fast) {
            T *yb = y + (((int64_t)n * (VIEW ? a.yn : a.cout) + co0 + 2 * t) * a.L_out + ob); /* row 2t, the thread's first output */
            if constexpr (PAIRS) {
                if (((a.L_out | ob) & 1) == 0 && ((uintptr_t)y & 3) == 0) { /* every row's pair 4-byte aligned */
#pragma unroll
                    for (int i = 0; i < BR / 8; ++i) {
#pragma unroll
                        for (int u = 0; u < 2; ++u) {
                            const int co = co0 + i * 8 + 2 * t + u;
                            if (co >= a.cout) continue;
                            const float bv = a.bias ? E::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
                            T *yr = yb + (int64_t)(i * 8 + u) * a.L_out;
#pragma unroll
                            for (int mq = 0; mq < MQ; ++mq)
                                *reinterpret_cast<uint32_t *>(yr + 64 * mq) = E::pack2(acc[mq][4 * i + u] + bv, acc[mq][4 * i + 2 + u] + bv);
                        }
                    }
                    continue;
                }
            }
#pragma unroll
            for (int i = 0; i < BR / 8; ++i) {
#pragma unroll
                for (int u = 0; u < 2; ++u) {
                    const int co = co0 + i * 8 + 2 * t + u;
                    if (co >= a.cout) continue;
                    const float bv = a.bias ? E::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
                    T *yr = yb + (int64_t)(i * 8 + u) * a.L_out;
#pragma unroll
                    for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                        for (int h = 0; h < 2; ++h) yr[64 * mq + HP * h] = E::from_f(acc[mq][4 * i + 2 * h + u] + bv);
                }
            }
            continue;
        }
        /* Phase-merged rows (ps > 1) of an interior tile: every output of the thread's rows inside y, and every row below
         * RT a channel below cout (the rows from RT on, spare rows, lie in the last 8-row group). Then the stores need no
         * checks and the row pointers are one base plus col * L_out + r: the general loops below rebuild each row's
         * 64-bit address from (n, co, o) and test every store, ~30 instructions per store, and with both warpgroups on one
         * tile (256x1) the tensor pipe idles through them (run 355, upsample_x8 fp16: the epilogue 43% of the executed
         * instructions, 27% of the stall samples). */
        /* Position pairs and grad_input never have ps > 1; in the split-TF32 64x2 kernels ptxas spilled 32-40 bytes
         * with these loops, and with them compiled into the TF32 128x2 kernels KernelBench 64 TF32 (stride 1: they never
         * run there) took 2.06-2.09 ms against 1.84-1.88 (run 359, alternating processes): those keep the checked ones. */
        if constexpr (!LEAN && !PAIRS && !BI && !(X3 && MQ == 2) && !(TY == WG_TF32 && BR == 128 && MQ == 2)) {
            const bool pfast = a.pfast && a.ps > 1 && ob >= 0 && RT >= BR - 8 && co0 + a.R <= a.cout &&
                               (int64_t)ob + (int64_t)(64 * (MQ - 1) + HP + 1) * a.ps <= a.L_out;
            if (pfast) {
                const T *bias = static_cast<const T *>(a.bias);
                T *yb = y + (((int64_t)n * (VIEW ? a.yn : a.cout) + co0) * a.L_out + ob); /* row co0, the thread's first output */
                const int dh = HP * a.ps, dq = 64 * a.ps; /* columns to h = 1, to tile mq + 1 */
                /* Row ml (below RT): its channel's bias into bv, and its first output */
                auto row = [&](int ml, float &bv) {
                    const int col = (int)__umulhi((uint32_t)ml, pmag), r = ml - col * a.ps;
                    bv = bias ? E::to_f(bias[co0 + col]) : 0.f;
                    return yb + ((int64_t)col * a.L_out + r);
                };
                if (a.ypair) { /* rows 2t, 2t + 1: phases r, r + 1 of one channel (the ypair loop below) */
#pragma unroll
                    for (int i = 0; i < BR / 8; ++i) {
                        const int ml = i * 8 + 2 * t;
                        if (i == BR / 8 - 1 && ml >= RT) {
                            spare_row(i, 0, ml, RT);
                            spare_row(i, 1, ml + 1, RT);
                            continue;
                        }
                        float bv;
                        T *yr = row(ml, bv);
#pragma unroll
                        for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                            for (int h = 0; h < 2; ++h) {
                                const float v0 = acc[mq][4 * i + 2 * h] + bv, v1 = acc[mq][4 * i + 2 * h + 1] + bv;
                                T *yp = yr + (mq * dq + h * dh);
                                if constexpr (sizeof(T) == 4)
                                    *reinterpret_cast<float2 *>(yp) = make_float2(v0, v1);
                                else
                                    *reinterpret_cast<uint32_t *>(yp) = E::pack2(v0, v1);
                            }
                    }
                } else {
#pragma unroll
                    for (int i = 0; i < BR / 8; ++i) {
#pragma unroll
                        for (int u = 0; u < 2; ++u) {
                            const int ml = i * 8 + 2 * t + u;
                            if (i == BR / 8 - 1 && ml >= RT) {
                                spare_row(i, u, ml, RT);
                                continue;
                            }
                            float bv;
                            T *yr = row(ml, bv);
#pragma unroll
                            for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                                for (int h = 0; h < 2; ++h) yr[mq * dq + h * dh] = E::from_f(acc[mq][4 * i + 2 * h + u] + bv);
                        }
                    }
                }
                continue;
            }
        }
        if (!LEAN && !BI && !PAIRS && a.ypair) {
            /* ps even (phase-merged strided layers): rows 2t and 2t + 1 are the adjacent outputs o, o + 1 of one
             * channel, stored as one 8-byte (fp32) or 4-byte (16-bit) pair, every sector whole (one row per store
             * used half of each 32-byte sector: ncu, run 190, upsample_x8 TF32 14.2 of 32 bytes). L_out, p even: o is
             * even, so o < L_out covers o + 1. Its own loop on purpose: folded into the general loop below as its
             * u = 0 pass (a run-time pair test per store), it ran 5-13% slower (run 203: upsample_x8 bf16 1.286 vs
             * 1.188 ms, hifigan_up1 bf16 0.359 vs 0.316). */
#pragma unroll
            for (int i = 0; i < BR / 8; ++i) {
                const int ml = i * 8 + 2 * t;
                const int col = (int)__umulhi((uint32_t)ml, pmag), r = ml - col * a.ps;
                const int co = co0 + col;
                if (i == BR / 8 - 1 && ml >= RT) { /* spare rows: ml and ml + 1 both (RT even) */
                    spare_row(i, 0, ml, RT);
                    spare_row(i, 1, ml + 1, RT);
                    continue;
                }
                if (ml >= RT || co >= a.cout) continue;
                const float bv = a.bias ? E::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
                const int o0 = ob + r;
                T *yr = y + (((int64_t)n * (VIEW ? a.yn : a.cout) + co) * a.L_out + o0);
#pragma unroll
                for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                    for (int h = 0; h < 2; ++h) {
                        const int d = (64 * mq + HP * h) * a.ps;
                        if ((unsigned)(o0 + d) >= (unsigned)a.L_out) continue;
                        const float v0 = acc[mq][4 * i + 2 * h] + bv, v1 = acc[mq][4 * i + 2 * h + 1] + bv;
                        if constexpr (sizeof(T) == 4)
                            *reinterpret_cast<float2 *>(yr + d) = make_float2(v0, v1);
                        else
                            *reinterpret_cast<uint32_t *>(yr + d) = E::pack2(v0, v1);
                    }
            }
            continue;
        }
#pragma unroll
        for (int i = 0; i < BR / 8; ++i) {
#pragma unroll
            for (int u = 0; u < 2; ++u) {
                const int ml = i * 8 + 2 * t + u;
                int col = ml, r = 0;
                if (a.ps > 1) {
                    col = (int)__umulhi((uint32_t)ml, pmag); /* ml / ps: exact for ml < 2^32 / ps^2 */
                    r = ml - col * a.ps;
                }
                const int co = co0 + col;
                if (!LEAN && i == BR / 8 - 1 && ml >= RT) { /* spare rows (none at ps = 1: RT = BR) */
                    spare_row(i, u, ml, RT);
                    continue;
                }
                if (ml >= RT || co >= a.cout) continue;
                const float bv = a.bias ? E::to_f(static_cast<const T *>(a.bias)[co]) : 0.f;
                const int o0 = ob + r; /* 32-bit output index: L_out < INT_MAX / 2 */
                T *yr = y + (((int64_t)n * (VIEW ? a.yn : a.cout) + co) * a.L_out + o0); /* the thread's first output of the row */
                if (BR > 128 && fast) {
#pragma unroll
                    for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                        for (int h = 0; h < 2; ++h) yr[64 * mq + HP * h] = E::from_f(acc[mq][4 * i + 2 * h + u] + bv);
                } else {
#pragma unroll
                    for (int mq = 0; mq < MQ; ++mq)
#pragma unroll
                        for (int h = 0; h < 2; ++h) {
                            const int d = (64 * mq + HP * h) * a.ps;
                            if ((unsigned)(o0 + d) < (unsigned)a.L_out) yr[d] = E::from_f(acc[mq][4 * i + 2 * h + u] + bv);
                        }
                }
            }
        }
    }
    if (!LEAN && a.stg_off >= 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#else
    __trap(); /* not built for sm_90a: the host never launches it (wgmma_built) */
#endif
}

/* Where the packed weight of (output channel co, tap k) goes: row j*M_pad + tile*BR + (m - tile*RT) of
 * Wm[j][row][ci] (see the header comment), with j, m from k as in the GEMM; channels from xc0 on in the spare rows. */
struct PackMap {
    int K, ps, d, M_pad, BR, RT;
    int xg, bk; /* input rows staged in groups of xg (WgArgs::xg; 0 or 1: no), bk channels per chunk */
    int xc0;    /* channels from xc0 on go to the tiles' spare rows (fwd_wgmma_rs_kernel's spare_row); else cout */
    /* The packed column of input channel ci: the stage row that holds it (WgArgs::xg). */
    __device__ __forceinline__ int col(int ci) const {
        if (xg <= 1) return ci;
        const int c = ci / bk, w = ci - c * bk;
        return c * bk + (w % xg) * (bk / xg) + w / xg;
    }
    __device__ __forceinline__ int64_t row(int co, int k) const {
        int j = k, m = co;
        if (ps > 1) {
            const int kd = k * d;
            j = kd / ps;
            m = co * ps + (kd - j * ps);
        }
        if (co >= xc0) { /* the e-th spare row: tile e / (BR - RT), row RT + e % (BR - RT) */
            const int e = m - xc0 * ps, sp = BR - RT, tile = e / sp;
            return (int64_t)j * M_pad + (int64_t)tile * BR + RT + (e - tile * sp);
        }
        const int tile = m / RT;
        return (int64_t)j * M_pad + (int64_t)tile * BR + (m - tile * RT);
    }
};

/* tile[i][j] = src[r0 + i][c0 + j] of a row-major [rows][cols] matrix (zero outside it), by a block's 256 threads:
 * 16-byte loads along the rows where aligned; 2-byte accesses left the pre-passes at a quarter of the bandwidth
 * (run 30). The first half of both 64 x 64 transposes below. */
template <int TY>
__device__ __forceinline__ void load_tile64(typename wg_type<TY>::T (&tile)[64][65], const typename wg_type<TY>::T *src,
                                            int rows, int cols, int r0, int c0, int tid) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T), NV = 64 / VE;
    for (int f = tid; f < 64 * NV; f += 256) {
        const int i = f / NV, cc = (f - i * NV) * VE, r = r0 + i, c = c0 + cc;
        union {
            uint4 u;
            T e[VE];
        } v;
        const T *rp = src + (int64_t)r * cols;
        if (r < rows && c + VE <= cols && (((uintptr_t)(rp + c)) & 15) == 0) {
            v.u = *reinterpret_cast<const uint4 *>(rp + c);
        } else {
#pragma unroll
            for (int e = 0; e < VE; ++e) v.e[e] = r < rows && c + e < cols ? rp[c + e] : wg_type<TY>::from_f(0.f);
        }
#pragma unroll
        for (int e = 0; e < VE; ++e) tile[i][cc + e] = v.e[e];
    }
}

/* One 64 x 64 tile (block coordinates bx, by, batch bz) of the input's transpose x[bz] = [rows][cols] -> Xt[bz] =
 * [cols][pitch] (wgmma_transpose_kernel<TY, false>): 16-byte loads along each x row (where the row is aligned) and
 * 16-byte stores along each Xt row (pitch and the tile's first row are multiples of 64 channels); destination columns
 * past `rows` (channel padding, up to dst_cols) written as zeros. */
template <int TY>
__device__ __forceinline__ void xt_tile(typename wg_type<TY>::T (&tile)[64][65], const typename wg_type<TY>::T *src,
                                        typename wg_type<TY>::T *dst, int rows, int cols, int pitch, int dst_cols,
                                        int64_t small_off, int bx, int by, int64_t bz, int tid) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T), NV = 64 / VE;
    const int r0 = by * 64, c0 = bx * 64;
    load_tile64<TY>(tile, src + bz * rows * (int64_t)cols, rows, cols, r0, c0, tid);
    __syncthreads();
    for (int f = tid; f < 64 * NV; f += 256) {
        const int i = f / NV, rr = (f - i * NV) * VE, c = c0 + i, r = r0 + rr;
        if (c >= cols || r >= dst_cols) continue;
        float v[VE];
#pragma unroll
        for (int e = 0; e < VE; ++e) v[e] = wg_type<TY>::to_f(tile[rr + e][i]);
        store_vec<TY>(dst + (bz * cols + c) * pitch + r, v, small_off);
    }
}

/* Tiled transpose through shared memory, 64 x 64 elements per block, coalesced on both sides; values
 * TF32-rounded in TF32 mode. Per blockIdx.z batch b, source matrix [rows][cols] at src + b*rows*cols:
 *  PACK false: the input, x[n] = [cin][L] -> Xt[n] = [L][pitch]; destination columns past `rows`
 *              (channel padding) are written as zeros.
 *  PACK true:  the weights -> Wm rows (the buffer zeroed first): w = [cin][cout*K] in one batch, or
 *              with the adjoint layout (adj) one batch per co of [cin][K], tap k = K-1-column.
 * WG_TF32X3 writes the big TF32 half at dst and the small one at dst + small_off. */
template <int TY, bool PACK>
__global__ void wgmma_transpose_kernel(const typename wg_type<TY>::T *src, typename wg_type<TY>::T *dst, int rows,
                                       int cols, int pitch, int dst_cols, int adj, PackMap pm, int64_t small_off) {
    typedef typename wg_type<TY>::T T;
    __shared__ T tile[64][65];
    const int r0 = blockIdx.y * 64, c0 = blockIdx.x * 64, tx = threadIdx.x;
    const int64_t b = blockIdx.z;
    const T *s = src + b * rows * (int64_t)cols;
    if constexpr (!PACK) {
        xt_tile<TY>(tile, src, dst, rows, cols, pitch, dst_cols, small_off, blockIdx.x, blockIdx.y, blockIdx.z,
                    threadIdx.y * 32 + tx);
    } else { /* the weights: scalar, scattered rows (small) */
#pragma unroll
        for (int i = threadIdx.y; i < 64; i += 8) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = r0 + i, c = c0 + tx + 32 * h;
                tile[i][tx + 32 * h] = r < rows && c < cols ? s[(int64_t)r * cols + c] : wg_type<TY>::from_f(0.f);
            }
        }
        __syncthreads();
#pragma unroll
        for (int i = threadIdx.y; i < 64; i += 8) {
            const int c = c0 + i;
            if (c >= cols) continue;
            const int64_t drow = adj ? pm.row((int)b, pm.K - 1 - c) : pm.row(c / pm.K, c % pm.K);
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = r0 + tx + 32 * h;
                if (r >= dst_cols) continue;
                const T v = tile[tx + 32 * h][i], big = wg_type<TY>::op(v);
                const int64_t at = drow * pitch + pm.col(r);
                dst[at] = big;
                if (TY == WG_TF32X3) dst[at + small_off] = wg_type<TY>::op(v - big);
            }
        }
    }
    pdl_trigger(); /* a programmatic launch after this one (the SS GEMM after the input's transpose) may start */
}

/* The forward's weight pack, w = [cin][cout*K] (not adjoint) -> Wm rows (PackMap), 64 channels x 64 columns (co, k)
 * per block through shared memory: 16-byte loads along each w row, and per column one PackMap::row and 16-byte
 * stores along its packed row (64 channels of one (co, k), contiguous unless the input rows are staged in groups,
 * xg > 1, which scatters them: scalar stores there). The scalar transpose above (PACK true) computes the row once per
 * warp and column and moves 2 or 4 bytes per access. Values as there: TF32-rounded in TF32 mode, WG_TF32X3's small
 * halves at + small_off. CONVT1D_WGMMA_PACK=0 takes the scalar kernel (A/B, tests). */
template <int TY>
__device__ __forceinline__ void pack_tile(typename wg_type<TY>::T (&tile)[64][65], const typename wg_type<TY>::T *w,
                                          typename wg_type<TY>::T *dst, int cin, int cols, int pitch, const PackMap &pm,
                                          int64_t small_off, int bx, int by, int tid) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T), NV = 64 / VE;
    const int r0 = by * 64, c0 = bx * 64;
    load_tile64<TY>(tile, w, cin, cols, r0, c0, tid);
    __syncthreads();
    for (int f = tid; f < 64 * NV; f += 256) {
        const int i = f / NV, rr = (f - i * NV) * VE, c = c0 + i, r = r0 + rr;
        if (c >= cols || r >= cin) continue;
        const int64_t base = pm.row(c / pm.K, c % pm.K) * pitch;
        union {
            uint4 u;
            T e[VE];
        } big, small;
#pragma unroll
        for (int e = 0; e < VE; ++e) {
            const T v = tile[rr + e][i];
            big.e[e] = wg_type<TY>::op(v);
            small.e[e] = TY == WG_TF32X3 ? wg_type<TY>::op(v - big.e[e]) : v;
        }
        if (pm.xg <= 1 && r + VE <= cin) { /* pitch, r and the buffer are 16-byte aligned */
            *reinterpret_cast<uint4 *>(dst + base + r) = big.u;
            if (TY == WG_TF32X3) *reinterpret_cast<uint4 *>(dst + base + r + small_off) = small.u;
        } else {
#pragma unroll
            for (int e = 0; e < VE; ++e) {
                if (r + e >= cin) break;
                const int64_t at = base + pm.col(r + e);
                dst[at] = big.e[e];
                if (TY == WG_TF32X3) dst[at + small_off] = small.e[e];
            }
        }
    }
}

template <int TY>
__global__ void __launch_bounds__(256) wgmma_pack_kernel(const typename wg_type<TY>::T *w, typename wg_type<TY>::T *dst,
                                                         int cin, int cols, int pitch, PackMap pm, int64_t small_off) {
    __shared__ typename wg_type<TY>::T tile[64][65]; /* [channel][column]; the odd pitch spreads a column's reads */
    pack_tile<TY>(tile, w, dst, cin, cols, pitch, pm, small_off, blockIdx.x, blockIdx.y, threadIdx.x);
    pdl_trigger(); /* the register-A forward after it (rs_launch) may start its prologue */
}

/* The SS forward's two passes before its kernel in one launch (a plain call's weight pack and the first batch chunk's
 * input transpose): blocks [0, pack_blocks) pack (wgmma_pack_kernel's tiles, pack_gx per row of tiles), the rest
 * transpose (wgmma_transpose_kernel<TY, false>'s tiles, xt_gx x xt_gy per batch row). One launch less per call: at
 * batch 1 the call is host-bound (single_utterance_x8: a launch is ~2.5 us of a ~25 us call, run 327), and the two
 * small passes overlap on the GPU. CONVT1D_WGMMA_PREPASS=0: two launches (A/B, tests). */
struct PrepassArgs {
    const void *w;
    void *wp;
    int cin, cols, pitch, pack_gx, pack_blocks;
    PackMap pm;
    int64_t w_small_off;
    const void *x;
    void *xt;
    int rows, L, xt_pitch, xt_cols, xt_gx, xt_gy;
    int64_t x_small_off;
};

template <int TY>
__global__ void __launch_bounds__(256) wgmma_prepass_kernel(PrepassArgs a) {
    typedef typename wg_type<TY>::T T;
    __shared__ T tile[64][65];
    int64_t b = blockIdx.x;
    if (b < a.pack_blocks) {
        pack_tile<TY>(tile, static_cast<const T *>(a.w), static_cast<T *>(a.wp), a.cin, a.cols, a.pitch, a.pm,
                      a.w_small_off, (int)(b % a.pack_gx), (int)(b / a.pack_gx), threadIdx.x);
    } else {
        b -= a.pack_blocks;
        const int64_t per = (int64_t)a.xt_gx * a.xt_gy;
        const int64_t bz = b / per;
        b -= bz * per;
        xt_tile<TY>(tile, static_cast<const T *>(a.x), static_cast<T *>(a.xt), a.rows, a.L, a.xt_pitch, a.xt_cols,
                    a.x_small_off, (int)(b % a.xt_gx), (int)(b / a.xt_gx), bz, threadIdx.x);
    }
    pdl_trigger(); /* the SS GEMM after it may start its prologue */
}

/* grad_input operand (convt1d_bwd_input_wgmma): the phase planes of grad_y, already transposed,
 *   Xt[n][q][co*s + b] = gy[n][co][q*s + b - p]   (zero outside [0, L_out)), q < Lg, co*s + b < s*C_out,
 * one block per 64 plane positions x CPT = max(1, 64/s) channels: each channel's span of 64*s grad_y
 * values is read contiguously into shared memory, then every row q written as CPT*s contiguous values.
 * TF32-rounded in TF32 mode; WG_TF32X3 writes the small halves at + small_off. */
template <int TY>
__global__ void __launch_bounds__(256) wgmma_planes_t_kernel(const typename wg_type<TY>::T *gy, typename wg_type<TY>::T *xt,
                                                             int cout, int s, int p, int L_out, int Lg, int pitch,
                                                             int64_t small_off) {
    typedef typename wg_type<TY>::T T;
    constexpr int VE = 16 / (int)sizeof(T);
    __shared__ float tile[64][65]; /* [channel-phase column][q] */
    const int cpt = s <= 64 ? 64 / s : 1;
    const int q0 = blockIdx.x * 64, co0 = blockIdx.y * cpt;
    const int64_t n = blockIdx.z;
    const int tid = threadIdx.y * 32 + threadIdx.x;
    const int chans = min(cpt, cout - co0);
    const int64_t o0 = (int64_t)q0 * s - p; /* the span of 64*s grad_y values of each channel */
    const int span = 64 * s;
    if (L_out % VE == 0 && ((uintptr_t)gy & 15) == 0) {
        /* 16-byte chunks of all the block's channels spread over the threads, four loads in flight per
         * thread before any is scattered: one channel at a time (load_span) kept a quarter of the
         * threads busy and one load per thread in flight, and took ~4x the bandwidth time. */
        const int64_t a0 = (o0 >= 0 ? o0 / VE : -((-o0 + VE - 1) / VE)) * VE;
        const int nvc = (int)((o0 + span - a0 + VE - 1) / VE), total = chans * nvc;
        for (int f0 = tid; f0 < total; f0 += 4 * 256) {
            union {
                uint4 u;
                T e[VE];
            } c[4];
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const int f = f0 + u * 256;
                c[u].u = make_uint4(0, 0, 0, 0); /* zero bits are zero in every operand type */
                if (f < total) {
                    const int cl = f / nvc;
                    const int64_t ob = a0 + (int64_t)(f - cl * nvc) * VE;
                    if (ob >= 0 && ob + VE <= L_out)
                        c[u].u = __ldg(reinterpret_cast<const uint4 *>(gy + (n * cout + co0 + cl) * L_out + ob));
                }
            }
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const int f = f0 + u * 256;
                if (f >= total) break;
                const int cl = f / nvc;
                const int i0 = (int)(a0 + (int64_t)(f - cl * nvc) * VE - o0); /* span index of element 0 */
                /* (ql, b) of the first element inside the span, then stepped: one division per chunk */
                const int e0 = i0 < 0 ? -i0 : 0;
                int ql = (i0 + e0) / s, b = i0 + e0 - ql * s;
#pragma unroll
                for (int e = 0; e < VE; ++e) {
                    if (e < e0) continue;
                    if (i0 + e < span) tile[cl * s + b][ql] = wg_type<TY>::to_f(c[u].e[e]);
                    if (++b == s) {
                        b = 0;
                        ++ql;
                    }
                }
            }
        }
    } else {
        for (int cl = 0; cl < chans; ++cl) {
            const T *src = gy + (n * cout + co0 + cl) * L_out;
            load_span<TY>(src, L_out, o0, span, ((uintptr_t)src & 15) == 0, tid, 256, [&](int i, float v) {
                const int ql = i / s;
                tile[cl * s + (i - ql * s)][ql] = v;
            });
        }
    }
    __syncthreads();
    /* Rows q: cols = chans*s contiguous values at column co0*s, 16-byte stores where aligned. */
    const int cols = chans * s, nvc = (cols + VE - 1) / VE;
    const int64_t cbase = (int64_t)co0 * s;
    for (int f = tid; f < 64 * nvc; f += 256) {
        const int ql = f / nvc, c = (f - ql * nvc) * VE, q = q0 + ql;
        if (q >= Lg) continue;
        T *d = xt + (n * Lg + q) * pitch + cbase + c;
        if (c + VE <= cols && (cbase + c) % VE == 0) {
            float v[VE];
#pragma unroll
            for (int i = 0; i < VE; ++i) v[i] = tile[c + i][ql];
            store_vec<TY>(d, v, small_off);
        } else {
            for (int i = 0; i < VE && c + i < cols; ++i) {
                const T v = wg_type<TY>::from_f(tile[c + i][ql]), big = wg_type<TY>::op(v);
                d[i] = big;
                if (TY == WG_TF32X3) d[i + small_off] = wg_type<TY>::op(v - big);
            }
        }
    }
}

/* The same planes where one plane position of one channel, a unit of s values, is 16 or 32 bytes (s*es: 16-bit
 * stride 8, fp32 stride 4 or 8) and starts 8-byte aligned (p*es and L_out*es multiples of 8): a plain transpose
 * of units, Xt[n][q][co*s ..] = the unit gy[n][co][q*s - p ..]. A block moves 32 channels x 32 positions: warps
 * read units along q (coalesced), shared memory turns the tile, warps write rows q along co (coalesced 16-byte
 * stores). The general kernel above scatters element by element through a float tile and ran codec_dec_s8's
 * bf16 planes (100 MB each way) at about half the copy bandwidth (106 us, run 128). */
template <int TY, int U>
__global__ void __launch_bounds__(256) wgmma_planes_t_units_kernel(const typename wg_type<TY>::T *gy,
                                                                   typename wg_type<TY>::T *xt, int cout, int p, int L_out,
                                                                   int Lg, int pitch, int64_t small_off) {
    typedef typename wg_type<TY>::T T;
    constexpr int es = (int)sizeof(T), VE = 16 / es, S = U * VE, W = 8 / es; /* unit: S values, U 16-byte parts */
    __shared__ uint4 tile[32][32 * U + 1]; /* [channel][q*U + part]; the odd pitch keeps 16-byte reads conflict-free */
    const int co0 = blockIdx.x * 32, q0 = blockIdx.y * 32, lane = threadIdx.x, warp = threadIdx.y;
    const int64_t n = blockIdx.z;
    for (int cl = warp; cl < 32; cl += 8) {
        const int co = co0 + cl;
        const int64_t o = (int64_t)(q0 + lane) * S - p; /* first value of the unit (a multiple of W) */
        const T *row = gy + (n * cout + (co < cout ? co : 0)) * L_out;
#pragma unroll
        for (int u = 0; u < U; ++u) {
            uint2 h[2];
#pragma unroll
            for (int k = 0; k < 2; ++k) {
                const int64_t e = o + (2 * u + k) * W;
                h[k] = co < cout && e >= 0 && e < L_out ? __ldg(reinterpret_cast<const uint2 *>(row + e)) : make_uint2(0, 0);
            }
            tile[cl][lane * U + u] = make_uint4(h[0].x, h[0].y, h[1].x, h[1].y);
        }
    }
    __syncthreads();
    for (int ql = warp; ql < 32; ql += 8) {
        const int q = q0 + ql, co = co0 + lane;
        if (q >= Lg || co >= cout) continue;
        T *d = xt + (n * Lg + q) * pitch + (int64_t)co * S;
#pragma unroll
        for (int u = 0; u < U; ++u) {
            union {
                uint4 v;
                T e[VE];
            } c;
            c.v = tile[lane][ql * U + u];
            float v[VE];
#pragma unroll
            for (int i = 0; i < VE; ++i) v[i] = wg_type<TY>::to_f(c.e[i]);
            store_vec<TY>(d + u * VE, v, small_off);
        }
    }
}

/* grad_input weights: Wm[j][m][co*s + b] = w[m][co][k] with k*d = j*s + b (zero if no tap, and in the
 * padding rows m >= C_in and columns >= s*C_out), every element written. */
template <int TY>
__global__ void wgmma_pack_bwd_kernel(const typename wg_type<TY>::T *w, typename wg_type<TY>::T *wp, int cin, int cout,
                                      int K, int s, int d, int M_pad, int pitch, int taps, int64_t small_off, int flip) {
    typedef typename wg_type<TY>::T T;
    const int64_t total = (int64_t)taps * M_pad * pitch;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        const int c = (int)(e % pitch);
        const int64_t r = e / pitch;
        const int m = (int)(r % M_pad), js = (int)(r / M_pad), j = flip ? taps - 1 - js : js; /* slot js holds tap j */
        const int co = c / s, kd = j * s + (c - co * s), k = kd / d;
        const bool on = m < cin && co < cout && kd % d == 0 && k < K;
        const T v = on ? w[((int64_t)m * cout + co) * K + k] : wg_type<TY>::from_f(0.f), big = wg_type<TY>::op(v);
        wp[e] = big;
        if (TY == WG_TF32X3) wp[e + small_off] = wg_type<TY>::op(v - big);
    }
}

/* The same gather, one block row per packed row (js, m) and VE = 16/sizeof(T) columns per thread with
 * 32-bit index arithmetic and one 16-byte store: the flat kernel above spent its time in 64-bit
 * divisions (codec_dec_s8's 38 MB pack took 118 us on an H100, ~4x its bandwidth time). Needs pitch
 * to be a multiple of VE and wp 16-byte aligned; rows past gridDim.y loop. */
template <int TY>
__global__ void __launch_bounds__(128) wgmma_pack_bwd_rows_kernel(const typename wg_type<TY>::T *w,
                                                                  typename wg_type<TY>::T *wp, int cin, int cout, int K,
                                                                  int s, int d, int M_pad, int pitch, int taps,
                                                                  int64_t small_off, int flip) {
    constexpr int VE = 16 / (int)sizeof(typename wg_type<TY>::T);
    const int c0 = (blockIdx.x * 128 + threadIdx.x) * VE;
    if (c0 >= pitch) return;
    const int co_first = c0 / s, b_first = c0 - co_first * s;
    for (int r = blockIdx.y; r < taps * M_pad; r += gridDim.y) {
        const int m = r % M_pad, js = r / M_pad, j = flip ? taps - 1 - js : js;
        float v[VE];
        int co = co_first, b = b_first;
#pragma unroll
        for (int e = 0; e < VE; ++e) {
            const int kd = j * s + b, k = kd / d;
            const bool on = m < cin && co < cout && kd - k * d == 0 && k < K;
            v[e] = on ? wg_type<TY>::to_f(w[((int64_t)m * cout + co) * K + k]) : 0.f;
            if (++b == s) {
                b = 0;
                ++co;
            }
        }
        store_vec<TY>(wp + (int64_t)r * pitch + c0, v, small_off);
    }
}

template <int TY>
cudaError_t launch_pack_bwd(const typename wg_type<TY>::T *w, typename wg_type<TY>::T *wp, int cin, int cout, int K,
                            int s, int d, int M_pad, int pitch, int taps, int64_t small_off, int flip,
                            cudaStream_t stream) {
    constexpr int VE = 16 / (int)sizeof(typename wg_type<TY>::T);
    if (pitch % VE == 0 && small_off % VE == 0 && ((uintptr_t)wp & 15) == 0) {
        const int64_t rows = (int64_t)taps * M_pad;
        const dim3 grid((unsigned)((pitch / VE + 127) / 128), (unsigned)(rows < 65535 ? rows : 65535));
        wgmma_pack_bwd_rows_kernel<TY><<<grid, 128, 0, stream>>>(w, wp, cin, cout, K, s, d, M_pad, pitch, taps,
                                                                 small_off, flip);
    } else {
        const int64_t total = (int64_t)taps * M_pad * pitch;
        wgmma_pack_bwd_kernel<TY><<<(unsigned)((total + 255) / 256 < 2048 ? (total + 255) / 256 : 2048), 256, 0, stream>>>(
            w, wp, cin, cout, K, s, d, M_pad, pitch, taps, small_off, flip);
    }
    return cudaGetLastError();
}

/* The SS kernel's split reduction (WgArgs::ks): y[i] = sum over kz = 0 .. ks-1, in that order, of part[kz*stride + i]
 * (fp32 partial sums; stride a multiple of 4, part 16-byte aligned): one rounding to T, the same bits every run. */
template <int TY>
__global__ void __launch_bounds__(256) ksplit_reduce_kernel(const float *part, typename wg_type<TY>::T *y, int64_t n,
                                                            int64_t stride, int ks) {
    typedef wg_type<TY> E;
    for (int64_t i = 4 * ((int64_t)blockIdx.x * blockDim.x + threadIdx.x); i < n; i += 4 * (int64_t)gridDim.x * blockDim.x) {
        float4 acc = *reinterpret_cast<const float4 *>(part + i);
        for (int kz = 1; kz < ks; ++kz) {
            const float4 v = *reinterpret_cast<const float4 *>(part + kz * stride + i);
            acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
        }
        const float r[4] = {acc.x, acc.y, acc.z, acc.w};
        for (int e = 0; e < 4 && i + e < n; ++e) y[i + e] = E::from_f(r[e]);
    }
}

/* ------------------------------------------------------------------ host side */

template <int TY, int BR, int MINB>
cudaError_t launch(const CUtensorMap &tmx, const CUtensorMap &tmw, const WgArgs &a, dim3 grid, int smem,
                   cudaStream_t stream, bool pdl) {
    return launch_big_smem_pdl<fwd_wgmma_kernel<TY, BR, MINB>>(grid, kThreads, smem, stream, pdl, tmx, tmw, a);
}

template <int TY>
cudaError_t launch_br(int BR, int minb, const CUtensorMap &tmx, const CUtensorMap &tmw, const WgArgs &a, dim3 grid,
                      int smem, cudaStream_t stream, bool pdl) {
    /* Split TF32 holds a second accumulator: 256 columns would not fit in registers (run() refuses). */
    if constexpr (TY != WG_TF32X3)
        if (BR == 256) return launch<TY, 256, 1>(tmx, tmw, a, grid, smem, stream, pdl);
    if constexpr (TY != WG_TF32X3) /* (nor two blocks per SM: run() refuses both) */
        if (BR == 128 && minb == 2) return launch<TY, 128, 2>(tmx, tmw, a, grid, smem, stream, pdl);
    if (BR == 128) return launch<TY, 128, 1>(tmx, tmw, a, grid, smem, stream, pdl);
    return launch<TY, 64, 1>(tmx, tmw, a, grid, smem, stream, pdl);
}

/* The SS forward's GEMM as a programmatic dependent launch after its pre-pass or input transpose (both end with
 * pdl_trigger; the GEMM's producer waits in pdl_wait before its first load): its launch and prologue overlap their
 * last blocks. CONVT1D_WGMMA_PDL=0: a plain launch (A/B). */
/* A session's A/B switch set to 0 (the three below). */
bool switch_off(const char *name) {
    const char *v = convt1d_env(name);
    return v && v[0] == '0';
}

bool pdl_on() { return !switch_off("CONVT1D_WGMMA_PDL"); }

/* CONVT1D_WGMMA_PACK=0: the forward's weights packed by the scalar transpose (wgmma_transpose_kernel<TY, true>), not
 * wgmma_pack_kernel (A/B; the tests check both give the same bits). */
bool pack_scalar() { return switch_off("CONVT1D_WGMMA_PACK"); }

/* The forward's packed weights Wm[j][row][ci] (PackMap; + the small TF32 halves after T*M_pad*cin_pad
 * elements for WG_TF32X3): zeroed (padding rows and channels, taps no weight lands on), then scattered. */
template <int TY>
cudaError_t pack_weights(const convt1d_problem &pr, const void *w, typename wg_type<TY>::T *wp, size_t wp_bytes,
                         const WgArgs &a, int BR, int K, int d, int cin, int cin_pad, int M_pad, int xc0, cudaStream_t stream,
                         PrepassArgs *merge = nullptr) {
    typedef typename wg_type<TY>::T T;
    const int64_t wp_elems = (int64_t)a.T * M_pad * cin_pad;
    const PackMap pm = {K, a.ps, d, M_pad, BR, a.R * a.ps, a.xg, kRow / (int)sizeof(T), xc0};
    const dim3 tb(32, 8);
    /* The scatter below writes one element per (ci, co, k), each to its own slot (PackMap::row is one-to-one). Where
     * those fill the whole packed tensor (no channel padding, and every one of the T*M_pad rows takes a weight: taps
     * K = T*s at d = 1 and no padding rows, as on every HiFi-GAN / codec layer and, with spare rows, codec_dec_s5),
     * zeroing it first is a pass for nothing (run 286: 24 of codec_dec_s8's 1177 us in fp32). */
    const bool covered = cin == cin_pad && (int64_t)a.cout * K == (int64_t)a.T * M_pad;
    cudaError_t e = covered ? cudaSuccess : cudaMemsetAsync(wp, 0, wp_bytes, stream);
    if (e != cudaSuccess) return e;
    if (pr.w_adjoint) /* w = [cout][cin][K] */
        wgmma_transpose_kernel<TY, true><<<dim3((unsigned)((K + 63) / 64), (unsigned)((cin + 63) / 64), (unsigned)a.cout), tb, 0, stream>>>(
            static_cast<const T *>(w), wp, cin, K, cin_pad, cin, 1, pm, wp_elems);
    else if (!pack_scalar()) { /* w = [cin][cout * K] */
        const dim3 g((unsigned)(((int64_t)a.cout * K + 63) / 64), (unsigned)((cin + 63) / 64), 1);
        if (merge) { /* the caller launches these tiles with its input transpose (wgmma_prepass_kernel) */
            merge->w = w;
            merge->wp = wp;
            merge->cin = cin;
            merge->cols = a.cout * K;
            merge->pitch = cin_pad;
            merge->pack_gx = (int)g.x;
            merge->pack_blocks = (int)(g.x * g.y);
            merge->pm = pm;
            merge->w_small_off = wp_elems;
            return cudaSuccess;
        }
        wgmma_pack_kernel<TY><<<g, 256, 0, stream>>>(static_cast<const T *>(w), wp, cin, a.cout * K, cin_pad, pm, wp_elems);
    } else
        wgmma_transpose_kernel<TY, true><<<dim3((unsigned)(((int64_t)a.cout * K + 63) / 64), (unsigned)((cin + 63) / 64), 1), tb, 0, stream>>>(
            static_cast<const T *>(w), wp, cin, a.cout * K, cin_pad, cin, 0, pm, wp_elems);
    return cudaGetLastError();
}

/* CONVT1D_WGMMA_PREPASS=0: the SS forward's weight pack and input transpose as two launches (wgmma_prepass_kernel). */
bool prepass_on() { return !switch_off("CONVT1D_WGMMA_PREPASS"); }

/* The weight cache's key for pack_weights' output with these arguments: every size it reads, the operand type (TF32
 * rounding, split halves) and the weight's pointer and layout. */
template <int TY>
PackKey pack_key(const convt1d_problem &pr, const void *w, const WgArgs &a, int BR, int K, int d, int cin, int cin_pad,
                 int M_pad, int xc0) {
    PackKey k;
    const int64_t v[] = {(int64_t)(uintptr_t)w, TY, pr.w_adjoint, K, d, cin, cin_pad, M_pad, BR, a.T, a.ps, a.R, a.xg,
                         xc0, a.cout};
    static_assert(sizeof(v) <= sizeof(k.v), "PackKey too short");
    memcpy(k.v, v, sizeof(v));
    return k;
}

/* One launch's packed weights from the call's weight cache (get): `ptr` the cache's copy of the layout, or nullptr
 * where the cache does not serve (no cache, or weight_cache_get declined): the caller packs into its scratch. A copy
 * this launch must fill (`fill`) is reported by packed(e) once its pack is queued; a launch that gives up before that
 * (an early return) hands the copy back in the destructor. */
struct CachedPack {
    convt1d_weight_cache *wc = nullptr;
    void *ptr = nullptr;
    bool fill = false;
    CachedPack() = default;
    CachedPack(const CachedPack &) = delete;
    CachedPack &operator=(const CachedPack &) = delete;
    void get(convt1d_weight_cache *c, const PackKey &key, size_t bytes, cudaStream_t stream) {
        wc = c;
        weight_cache_get(c, key, bytes, stream, &ptr, &fill);
    }
    bool need_pack() const { return !ptr || fill; }
    void packed(cudaError_t e, cudaStream_t stream) {
        if (fill) e == cudaSuccess ? weight_cache_filled(wc, ptr, stream) : weight_cache_failed(wc, ptr);
        fill = false;
    }
    ~CachedPack() {
        if (fill) weight_cache_failed(wc, ptr);
    }
};

template <int TY, int BR, int MQ, bool BI, bool VIEW>
cudaError_t launch_rs_v(const CUtensorMap &tmx, const CUtensorMap &tmw, const WgArgs &a, unsigned grid, int smem,
                        cudaStream_t stream, bool pdl) {
    if constexpr (!BI && !VIEW && MQ == 2 && TY != WG_TF32X3 && (BR == 64 || (BR == 128 && TY == WG_TF32)))
        if (a.lean)
            return launch_big_smem_pdl<fwd_wgmma_rs_kernel<TY, BR, MQ, false, TY != WG_TF32, false, false, true>>(
                dim3(grid), kThreadsRS, smem, stream, pdl, tmx, tmw, a);
    if constexpr (!BI && (TY == WG_F16 || TY == WG_BF16))
        if (a.pairs)
            return launch_big_smem_pdl<fwd_wgmma_rs_kernel<TY, BR, MQ, false, true, VIEW, false>>(dim3(grid), kThreadsRS, smem, stream, pdl,
                                                                                             tmx, tmw, a);
    if constexpr (!BI && TY == WG_TF32 && BR == 64)
        if (a.rx)
            return launch_big_smem_pdl<fwd_wgmma_rs_kernel<TY, BR, MQ, false, false, VIEW, true>>(dim3(grid), kThreadsRS, smem, stream, pdl,
                                                                                             tmx, tmw, a);
    return launch_big_smem_pdl<fwd_wgmma_rs_kernel<TY, BR, MQ, BI, false, VIEW, false>>(dim3(grid), kThreadsRS, smem, stream, pdl, tmx, tmw, a);
}
template <int TY, int BR, int MQ, bool BI>
cudaError_t launch_rs(const CUtensorMap &tmx, const CUtensorMap &tmw, const WgArgs &a, unsigned grid, int smem,
                      cudaStream_t stream, bool pdl) {
    return a.view ? launch_rs_v<TY, BR, MQ, BI, true>(tmx, tmw, a, grid, smem, stream, pdl)
                  : launch_rs_v<TY, BR, MQ, BI, false>(tmx, tmw, a, grid, smem, stream, pdl);
}

/* Register-A tiles (BR rows x 128*MQ positions): 64x1, 64x2, 128x1, and where one accumulator per tile
 * is enough (not split TF32), 128x2 and 256x1. */
template <int TY, bool BI>
cudaError_t launch_rs_tile(int BR, int MQ, const CUtensorMap &tmx, const CUtensorMap &tmw, const WgArgs &a,
                           unsigned grid, int smem, cudaStream_t stream, bool pdl) {
    if constexpr (TY != WG_TF32X3) {
        if (BR == 256) return launch_rs<TY, 256, 1, BI>(tmx, tmw, a, grid, smem, stream, pdl);
        if (BR == 128 && MQ == 2) return launch_rs<TY, 128, 2, BI>(tmx, tmw, a, grid, smem, stream, pdl);
    }
    if (BR == 128) return launch_rs<TY, 128, 1, BI>(tmx, tmw, a, grid, smem, stream, pdl);
    if (MQ == 1) return launch_rs<TY, 64, 1, BI>(tmx, tmw, a, grid, smem, stream, pdl);
    return launch_rs<TY, 64, 2, BI>(tmx, tmw, a, grid, smem, stream, pdl);
}

/* Whether the kernels were compiled for sm_90a (a build for other architectures only has the trap). */

/* Position tiles per batch row: output o = q*ps + r - p puts every phase's q in [p/ps, (p + L_out - 1)/ps]. */
int64_t q_tile_count(const WgArgs &a) {
    const int64_t q_min = a.p / a.ps, q_max = ((int64_t)a.p + a.L_out - 1) / a.ps;
    return (q_max - q_min + kBQ) / kBQ;
}

/* grad_input through this kernel (convt1d_bwd_input_wgmma): the GEMM's input channels are the
 * s*C_out phase-plane rows of grad_y, its positions the Lg plane positions. */
struct BwdInput {
    int s, p, cout, L_out, Lg;
};

/* The SS kernel's split reduction (WgArgs::ks) where the tiles would fill at most half the SMs (batch-1
 * grad_input, single_utterance_x8: 28 tiles of a 4096-long reduction, 74 us on an H100 in run 187 against cuDNN's
 * 27): as many splits as give each SM one block, at most 16, each at least 4 chunks long. Run 188 (H100, ms,
 * grad_input alone, splits 1 / 4 / 8 / 16): TF32 0.097 / 0.061 / 0.064 / 0.086, split TF32 0.161 / 0.085 / 0.103 /
 * 0.142, bf16 0.057 / 0.045 / 0.050 / 0.071 (cuDNN 0.057, 0.218, 0.039): filling both block slots of an SM (8)
 * or past them loses. CONVT1D_WGMMA_KSPLIT=0: never; =k: k splits wherever the SS grad_input runs (tests, A/B). */
void pick_ksplit(WgArgs &a, int64_t blocks) {
    const char *v = convt1d_env("CONVT1D_WGMMA_KSPLIT");
    const int64_t sm = convt1d_sm_count();
    int64_t ks = 1;
    if (v && v[0]) {
        ks = atoi(v);
    } else if (blocks * 2 <= sm) {
        ks = sm / blocks;
        if (ks > 16) ks = 16;
        if (ks > a.nchunk / 4) ks = a.nchunk / 4;
    }
    if (ks > a.nchunk) ks = a.nchunk;
    if (ks < 2) return;
    a.kcps = (int)((a.nchunk + ks - 1) / ks);
    a.ks = (a.nchunk + a.kcps - 1) / a.kcps; /* no empty split */
}

/* Pack, then per batch chunk: transpose, kernel. Scratch from cudaMallocAsync on the stream.
 * bi: grad_input mode (x is grad_y, w the layer's weight): the planes-transpose and the gather pack. */
template <int TY>
convt1d_status run(const convt1d_problem &pr, const void *x, const void *w, WgArgs a, int BR, int minb, int K,
                   int d, cudaStream_t stream, const BwdInput *bi = nullptr) {
    typedef typename wg_type<TY>::T T;
    const convt1d_params &P = pr.p;
    const int es = (int)sizeof(T), kBK = kRow / es;
    const int cin = bi ? bi->s * bi->cout : (int)P.in_channels, L = bi ? bi->Lg : (int)P.in_length;
    const int N = (int)P.batch;
    const int RT = a.R * a.ps;
    const int M = a.cout * a.ps;
    const int r_tiles = (M + RT - 1) / RT;
    const int M_pad = r_tiles * BR, cin_pad = a.nchunk * kBK;
    a.qa = a.p / a.ps;
    const int64_t q_tiles = q_tile_count(a);
    if (q_tiles > INT_MAX || r_tiles > 65535) return CONVT1D_ERROR_NOT_SUPPORTED;

    const int halves = TY == WG_TF32X3 ? 2 : 1; /* big (+ small) copies of every operand */
    if (TY == WG_TF32X3 && (BR == 256 || minb == 2)) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int SB = stage_bytes(BR) * halves;
    /* As many stages as fit (up to 8) in the block's share of shared memory (minb blocks per SM). */
    a.stages = ((minb == 2 ? 113 * 1024 : kMaxSmem) - 1024 - 128) / SB;
    if (a.stages > 8) a.stages = 8;
    if (a.stages < 2) return CONVT1D_ERROR_NOT_SUPPORTED;

    /* Batch chunks of equal size within the budget (a short last chunk would run a sliver of the grid). */
    const size_t per_n = (size_t)L * cin_pad * es;
    const int64_t fit = per_n * N <= kXtBudget ? N : (kXtBudget / per_n > 0 ? (int64_t)(kXtBudget / per_n) : 1);
    const int64_t chunks = (N + fit - 1) / fit;
    const int nb = (int)((N + chunks - 1) / chunks);
    a.nb = nb;
    if ((int64_t)nb * halves > INT_MAX) return CONVT1D_ERROR_NOT_SUPPORTED;
    /* The split reduction: grad_input only (no bias to add once), and the partial sums within 256 MB. */
    a.ks = 1;
    a.kcps = a.nchunk;
    a.kstride = ((int64_t)nb * a.cout * a.L_out + 3) / 4 * 4;
    if (bi) pick_ksplit(a, q_tiles * r_tiles * nb);
    if (a.ks > 1 && ((size_t)a.ks * a.kstride * 4 > ((size_t)256 << 20) || (int64_t)nb * a.ks > 65535)) {
        a.ks = 1;
        a.kcps = a.nchunk;
    }
    /* The epilogue's staged tile reuses the stages (fp32 partial sums when split). */
    const int epi = a.R * (kBQ * a.ps + kRowPad) * (a.ks > 1 ? 4 : es);
    int smem = a.stages * SB + a.stages * 16;
    if (epi > smem) smem = epi;
    smem += 1024;
    if (smem > (minb == 2 ? 113 * 1024 : kMaxSmem)) return CONVT1D_ERROR_NOT_SUPPORTED;

    const int64_t wp_elems = (int64_t)a.T * M_pad * cin_pad, xt_elems = (int64_t)nb * L * cin_pad;
    const size_t wp_bytes = ((size_t)wp_elems * es * halves + 1023) / 1024 * 1024;
    const size_t xt_bytes = ((size_t)xt_elems * es * halves + 255) / 256 * 256;
    const size_t part_bytes = a.ks > 1 ? (size_t)a.ks * a.kstride * 4 : 0;
    /* The packed weights: the call's weight cache's copy where it has one (packed on first use), else scratch. */
    CachedPack cp;
    if (!bi && pr.wcache)
        cp.get(pr.wcache, pack_key<TY>(pr, w, a, BR, K, d, cin, cin_pad, M_pad, a.cout), wp_bytes, stream);
    const size_t own_wp = cp.ptr ? 0 : wp_bytes;
    void *scratch = nullptr;
    cudaError_t e = cudaMallocAsync(&scratch, own_wp + xt_bytes + part_bytes, stream);
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma forward: scratch: %s", cudaGetErrorString(e));
    T *wp = static_cast<T *>(cp.ptr ? cp.ptr : scratch);
    T *xt = reinterpret_cast<T *>(static_cast<unsigned char *>(scratch) + own_wp);
    float *part = reinterpret_cast<float *>(static_cast<unsigned char *>(scratch) + own_wp + xt_bytes);
    CUtensorMap tmx, tmw;
    if (!make_map(&tmw, wp, es, (uint64_t)cin_pad, (uint64_t)M_pad, (uint64_t)a.T * halves, kBK, (uint32_t)BR, 1) ||
        !make_map(&tmx, xt, es, (uint64_t)(bi ? cin : cin_pad), (uint64_t)L, (uint64_t)nb * halves, kBK, kBQ, 1,
                  (uint64_t)cin_pad)) { /* grad_input: channels past s*C_out arrive as zeros (never written) */
        cudaFreeAsync(scratch, stream);
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    /* Weights: zero the packed tensor (padding rows and channels, taps no weight lands on), then scatter;
     * grad_input: one gather writing every element. */
    const dim3 tb(32, 8);
    if (bi) {
        e = launch_pack_bwd<TY>(static_cast<const T *>(w), wp, a.cout, bi->cout, K, bi->s, d, M_pad, cin_pad, a.T,
                                wp_elems, 0, stream);
    }
    /* A plain call's pack: in one launch with the first batch chunk's transpose where it is the vectorized pack
     * (wgmma_prepass_kernel; `merged` until that launch), else on its own. */
    PrepassArgs pa{};
    bool merged = false;
    if (!bi && cp.need_pack()) {
        e = pack_weights<TY>(pr, w, wp, wp_bytes, a, BR, K, d, cin, cin_pad, M_pad, a.cout, stream,
                             prepass_on() ? &pa : nullptr);
        merged = e == cudaSuccess && pa.pack_blocks > 0;
        if (!merged) cp.packed(e, stream);
    }
    const PackMap pm = {K, a.ps, d, M_pad, BR, RT, 1, kRow / (int)sizeof(T), a.cout};
    const bool pdl = !bi && pdl_on(); /* the GEMM after each chunk's pre-pass (grad_input's planes do not trigger) */
    T *y0 = static_cast<T *>(a.y);
    for (int n0 = 0; n0 < N && e == cudaSuccess; n0 += nb) {
        const int nc = N - n0 < nb ? N - n0 : nb;
        const T *gyc = bi ? static_cast<const T *>(x) + (int64_t)n0 * bi->cout * bi->L_out : nullptr;
        const int su = bi ? plane_unit_bytes(bi->s, es, bi->p, bi->L_out, gyc) : 0; /* bytes per plane unit */
        const bool packs_here = merged; /* this launch also packs: the cache hears of it below */
        if (su) {
            const dim3 g((unsigned)((bi->cout + 31) / 32), (unsigned)((L + 31) / 32), (unsigned)nc);
            if (su == 16)
                wgmma_planes_t_units_kernel<TY, 1><<<g, tb, 0, stream>>>(gyc, xt, bi->cout, bi->p, bi->L_out, L, cin_pad, xt_elems);
            else
                wgmma_planes_t_units_kernel<TY, 2><<<g, tb, 0, stream>>>(gyc, xt, bi->cout, bi->p, bi->L_out, L, cin_pad, xt_elems);
        } else if (bi) {
            const int cpt = bi->s <= 64 ? 64 / bi->s : 1;
            wgmma_planes_t_kernel<TY><<<dim3((unsigned)((L + 63) / 64), (unsigned)((bi->cout + cpt - 1) / cpt), (unsigned)nc), tb, 0, stream>>>(
                gyc, xt, bi->cout, bi->s, bi->p, bi->L_out, L, cin_pad, xt_elems);
        } else if (merged) {
            pa.x = static_cast<const T *>(x) + (int64_t)n0 * cin * L;
            pa.xt = xt;
            pa.rows = cin;
            pa.L = L;
            pa.xt_pitch = cin_pad;
            pa.xt_cols = cin_pad;
            pa.xt_gx = (L + 63) / 64;
            pa.xt_gy = (cin_pad + 63) / 64;
            pa.x_small_off = xt_elems;
            /* A 1-D grid well inside its 2^31 - 1 blocks: one tile per 4096 weight elements (a weight the device holds)
             * and per 4096 elements of a batch chunk's transpose (at most kXtBudget bytes). */
            const int64_t blocks = pa.pack_blocks + (int64_t)pa.xt_gx * pa.xt_gy * nc;
            wgmma_prepass_kernel<TY><<<(unsigned)blocks, 256, 0, stream>>>(pa);
            merged = false;
        } else {
            wgmma_transpose_kernel<TY, false><<<dim3((unsigned)((L + 63) / 64), (unsigned)((cin_pad + 63) / 64), (unsigned)nc), tb, 0, stream>>>(
                static_cast<const T *>(x) + (int64_t)n0 * cin * L, xt, cin, L, cin_pad, cin_pad, 0, pm, xt_elems);
        }
        e = cudaGetLastError();
        if (packs_here) cp.packed(e, stream);
        if (e != cudaSuccess) break;
        T *yc = y0 + (int64_t)n0 * a.cout * a.L_out;
        a.y = a.ks > 1 ? static_cast<void *>(part) : static_cast<void *>(yc);
        a.yvec = ((uintptr_t)a.y & 15) == 0;
        a.kn = nc;
        e = launch_br<TY>(BR, minb, tmx, tmw, a, dim3((unsigned)q_tiles, (unsigned)r_tiles, (unsigned)(nc * a.ks)), smem,
                          stream, pdl);
        if (e == cudaSuccess && a.ks > 1) {
            const int64_t n_el = (int64_t)nc * a.cout * a.L_out, g = (n_el / 4 + 255) / 256;
            ksplit_reduce_kernel<TY><<<(unsigned)(g < 8 * convt1d_sm_count() ? g : 8 * convt1d_sm_count()), 256, 0,
                                       stream>>>(part, yc, n_el, a.kstride, a.ks);
            e = cudaGetLastError();
        }
    }
    const cudaError_t f = cudaFreeAsync(scratch, stream);
    if (e == cudaSuccess) e = f;
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "wgmma forward launch failed: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

/* Ping-pong tiles for the register-A kernel (MQ = 2): CONVT1D_WGMMA_RS_PP=0/1; by default for the
 * stride-1 forward (run 53, ms, ping-pong vs not: KernelBench 64 TF32 1.79 vs 1.89-1.91, bf16 1.33-1.36 vs
 * 1.42, KernelBench 74 equal; it loses on hifigan_up4 TF32, 1.17 vs 1.08, and on the strided grad_input,
 * hifigan_up3/up4 bf16 1.04 vs 0.94-0.97), and, since the tiles can be ordered (WgArgs::ppo, Session 32), for the
 * TF32 forward of phase-merged rows with a short reduction (fwd_short: C_in x taps <= 384), where the stores weigh
 * most against the MMAs (run 345, H200, ms, ordered ping-pong / not: hifigan_up3 1.123 / 1.204; hifigan_up4 and
 * grouped_g4 equal; hifigan_up2, 512 terms, 1.241 / 1.189; hifigan_up3 bf16 and split TF32 equal). */
int rs_pingpong(int MQ, bool fwd_stride1, bool fwd_short) {
    const char *v = convt1d_env("CONVT1D_WGMMA_RS_PP");
    return MQ == 2 && (v && v[0] ? v[0] == '1' : fwd_stride1 || fwd_short);
}

/* A last position tile with few valid positions costs a whole tile of MMA work (codec_dec_s8: 1025 plane positions
 * per sample, the ninth tile of 128 holds one, and 1728 tiles take 14 rounds of the 132-block grid where 1536 take
 * 12). Where at most 8 positions are valid and dropping the tile saves enough rounds of the persistent grid (counted
 * for a full grid and for one rounded to whole row tiles, as resident weights round it), the first output it would write,
 * o_lo = q*ps - p, is returned and convt1d_fwd_edge writes o >= o_lo (where convt1d_fwd_edge_fits says it can); else
 * -1. *only_beside: the drop pays only with the edge kernel beside the forward (edge_launch). Strided (phase-merged)
 * layers only, whose tiles are 128*MQ positions (no ping-pong tiles there). CONVT1D_WGMMA_RS_EDGE=0 never, 1 wherever
 * it applies. */
/* The H200's stride-1 TF32 form (direct stores, no RX, weights resident up to kWresMax16; the lean kernel follows) is
 * also the H100's on 64-row tiles, except where one 128-byte chunk of channels (32 in) feeds more than 32 rows, as in
 * KernelBench 74's forward: there the MMAs of a tile are too few to hide its direct stores. H100, rotated, ms, H100 form
 * / H200 form (runs 413-414): KernelBench 74 forward (32 in, 64 rows) 0.644 / 0.741; its grad_input, a stride-1
 * forward on the adjoint weights (64 in, 32 rows), 0.979 / 0.733 (direct and no RX alone 0.779, the full kernel so
 * 0.842); outside the suite, 64 in 32 rows 1.029 / 0.736, 32 in 32 rows 0.591 / 0.431, 128 in 32 rows 0.345 / 0.285,
 * 64 in 64 rows 1.136 / 0.917. 128-row tiles keep the H100's form (KernelBench 64: staged 1.881, direct 1.911).
 * CONVT1D_WGMMA_RS_S1DIRECT=0/1: as convt1d_dram_rich alone / on every TF32 stride-1 layer (A/B, tests). */
bool rs_s1_direct(const WgArgs &a, int BR) {
    const char *v = convt1d_env("CONVT1D_WGMMA_RS_S1DIRECT");
    if (v && v[0]) return v[0] == '1' || convt1d_dram_rich();
    return convt1d_dram_rich() || (BR == 64 && (a.cout <= 32 || a.nchunk >= 2));
}

int64_t rs_edge_drop(const convt1d_problem &pr, const WgArgs &a, int MQ, int64_t q_max, bool *only_beside) {
    *only_beside = false;
    const char *ev = convt1d_env("CONVT1D_WGMMA_RS_EDGE");
    const int env = ev && ev[0] ? ev[0] != '0' : -1;
    if (env == 0 || a.ps < 2 || a.q_tiles < 2 || pr.p.groups != 1 || pr.dtype == CONVT1D_F64) return -1;
    const int64_t q_last = a.qa + (int64_t)(a.q_tiles - 1) * 128 * MQ;
    if (q_max - q_last + 1 > 8) return -1;
    const int64_t sms = convt1d_sm_count() > 0 ? convt1d_sm_count() : 132, rt = a.r_tiles, per_q = rt * a.N;
    auto rounds = [&](int64_t tiles, bool whole_rows) {
        int64_t g = tiles < sms ? tiles : sms;
        if (whole_rows && g >= rt) g = g / rt * rt;
        return (tiles + g - 1) / g;
    };
    const int64_t before = (int64_t)a.q_tiles * per_q, after = before - per_q;
    const int64_t saved = std::min(rounds(before, false) - rounds(after, false), rounds(before, true) - rounds(after, true));
    /* The rounds saved must outweigh the edge kernel (~25 us on codec_dec_s8): their MMA work in 16-bit
     * multiply-add equivalents (TF32 counts twice, split TF32 three times) at least 96M. Run 145 (ms, edge / none):
     * codec_dec_s8, 2 rounds of 100M, bf16 0.731 / 0.820, fp16 0.789 / 0.832, TF32 1.200 / 1.275, strict 3.006 /
     * 3.095; hifigan_up1, 1 round of 34M, bf16 0.408 / 0.395, TF32 0.609 / 0.603 (losses), strict 1.333 / 1.417;
     * upsample_x8, 1 round of 34M, equal in every mode. */
    const int64_t unit = a.R * a.ps; /* rows per tile */
    const int64_t mult = pr.dtype != CONVT1D_F32 ? 1 : pr.math == CONVT1D_MATH_STRICT_FP32 ? 3 : 2;
    const int64_t round_work = unit * 128 * MQ * pr.p.in_channels * a.T * mult;
    /* Run beside the main kernel (edge_launch: on the SMs its last, partial round leaves idle) the edge kernel costs
     * little, so one saved round is enough; after it, the rule above. */
    if (env < 0 && saved < 1) return -1;
    *only_beside = env < 0 && saved * round_work < ((int64_t)96 << 20);
    const int64_t o_lo = std::max<int64_t>(q_last * a.ps - a.p, 0);
    return convt1d_fwd_edge_fits(pr, o_lo) ? o_lo : -1;
}

/* The common tail of run_rs and run_rs_bi, once the tiles are known: the stage ring (weights of every tap of
 * a chunk + MQ input boxes of xbox bytes), the packed-weight scratch (stream-ordered) and its tensor map, the
 * input's map (mkx(tmx): TMA staging; false = cannot), pack(wp, wp_bytes, M_pad, cin_pad), one persistent
 * launch of a GPU's worth of blocks, scratch freed. The maps are encoded after the first runtime call: on a
 * thread with no current context yet (autograd's backward thread) cuTensorMapEncodeTiled fails with
 * CUDA_ERROR_INVALID_CONTEXT (run 42, when the input's map came first). */
template <int TY, bool BI, class MkX, class Pack>
convt1d_status rs_launch(WgArgs a, int BR, int MQ, int xbox, bool allow_one_stage, cudaStream_t stream,
                         const char *what, convt1d_weight_cache *wc, const PackKey &key, MkX mkx, Pack pack) {
    typedef typename wg_type<TY>::T T;
    constexpr int es = (int)sizeof(T), kBK = kRow / es;
    constexpr int halves = TY == WG_TF32X3 ? 2 : 1;
    const int M_pad = a.r_tiles * BR, cin_pad = a.nchunk * kBK;
    const int CW = a.T * BR * kRow * halves; /* one chunk's weights */
    /* Resident weights (CONVT1D_WGMMA_RS_WRES=0 never, 1 wherever they fit; default up to kWresMax / kWresMax16):
     * the block keeps one row tile, so the grid is a multiple of r_tiles. Staged epilogue
     * (CONVT1D_WGMMA_RS_EPI=direct / staged): y 16-byte aligned; at ps = 1 by default for TF32 and split
     * TF32, and the strided grad_input (run 49, H200, ms, staged vs direct: KernelBench 74 strict 1.06 vs 1.23,
     * codec_dec_s5 grad_input TF32 0.44 vs 0.47, upsample_x8 2.26 vs 2.38; KernelBench 74 TF32 0.72 vs 0.65
     * then, but on the H100 of runs 204-205 0.711-0.714 vs 0.762-0.763: the direct stores stall the next
     * tile's MMAs on their accumulator registers, long-scoreboard 2.33 -> 0.63 cycles per instruction;
     * KernelBench 64 TF32 unchanged (its staged tile does not fit beside its two stages), the stride-1
     * grad_input equal; 16-bit loses with the position pairs, KernelBench 74 0.63 vs 0.43, 64 bf16 1.05 vs 1.01).
     * Ping-pong tiles (rs_pingpong) need a stage more than a tile's chunks: a warpgroup waiting for its next
     * stage must find that stage's previous use filled (an mbarrier tells only the current phase from the one
     * before). The first layout that fits wins:
     * ping-pong before not, then both options, resident only, staged only, neither; two stages (one
     * with allow_one_stage) at least.
     * Phase-merged forward rows (ps > 1, Session 19): direct stores as pairs of adjacent phases where they are
     * aligned (ypair: ps, L_out and p even), else staged (run 193, H200, ms, staged / direct: hifigan_up4 TF32
     * 0.845 / 1.053, bf16 0.714 / 0.743, split TF32 1.158 / 1.347, hifigan_up3 bf16 0.659 / 0.764, codec_dec_s5
     * equal; with pairs, split TF32: upsample_x8 5.226 / 5.079, hifigan_up1 1.349 / 1.333, codec_dec_s8 3.109 /
     * 3.073, 16-bit and TF32 equal). CONVT1D_WGMMA_RS_YPAIR=0: one element per direct store (A/B, tests). */
    const char *yv = convt1d_env("CONVT1D_WGMMA_RS_YPAIR");
    a.ypair = !BI && a.ps % 2 == 0 && a.L_out % 2 == 0 && a.p % 2 == 0 && ((uintptr_t)a.y & (2 * es - 1)) == 0 &&
              !(yv && yv[0] == '0');
    const char *wv = convt1d_env("CONVT1D_WGMMA_RS_WRES"), *ev = convt1d_env("CONVT1D_WGMMA_RS_EPI");
    const int64_t wres_bytes = (int64_t)a.nchunk * CW;
    /* One-phase layers (os > 1) have only the staged epilogue (it writes the columns between their outputs). */
    /* On the H200 (convt1d_dram_rich; runs 379-380, rotated, ms, direct / staged) TF32 at stride 1 stores directly
     * (KernelBench 74 0.597-0.602 / 0.655, with RX off as run_rs sets it there), and 16-bit at stride 2 without pairs
     * (hifigan_up3 0.617-0.622 / 0.660-0.664, hifigan_up4 0.600-0.609 / 0.692-0.696, grouped_g4 0.578-0.589 /
     * 0.616-0.619; codec_dec_s5, stride 5, loses: 0.232-0.241 / 0.220-0.228). */
    const bool rich = convt1d_dram_rich(), s1d = rs_s1_direct(a, BR);
    const bool fwd_s1 = !BI && a.ps == 1 && a.os == 1; /* a stride-1 forward (or the stride-1 grad_input) */
    const bool stg_dflt = BI || (a.ps == 1 ? es == 4 && !(s1d && TY == WG_TF32) : !a.ypair && !(rich && es == 2 && a.ps == 2));
    const bool stg_want = a.os > 1 || (ev && ev[0] ? ev[0] == 's' : stg_dflt);
    const bool stg_ok = stg_want && (a.ps == 1 || !BI) && ((uintptr_t)a.y & 15) == 0;
    if (a.os > 1 && !stg_ok) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int need = allow_one_stage ? 1 : 2;
    int pick = -1, stages = 0, sb = 0, pp = 0, spitch = 0, stg_bytes = 0;
    int64_t grid = 0;
    const char *ppv = convt1d_env("CONVT1D_WGMMA_RS_PP");
    /* Ping-pong with fewer stages than a tile's chunks + 1 orders the warpgroups' tiles (WgArgs::ppo, Session 32), in
     * TF32. Run 346 (H100, ms, ordered / not ping-pong, the next tile let in S chunks before the last): KernelBench 64
     * TF32 1.857 / 2.014, its grad_input 2.063 / 2.114, hifigan_up3 1.359 / 1.378; split TF32 KernelBench 64 4.646 /
     * 4.568 (so not there), KernelBench 74 equal; in 16-bit no suite layer would take it. Run 348, let in after the
     * last chunk (as now): KernelBench 64 TF32 1.881 / 2.007. CONVT1D_WGMMA_RS_PPO=0: ping-pong only where nchunk + 1 stages fit, as
     * before (A/B); =1: in every type; =2: every type, two stages wherever it pings (tests: the tightest ring). */
    const char *ppo_v = convt1d_env("CONVT1D_WGMMA_RS_PPO");
    const int ppo_env = ppo_v && ppo_v[0] == '0' ? 0 : ppo_v && ppo_v[0] == '2' ? 2 : ppo_v && ppo_v[0] == '1' ? 1 : TY == WG_TF32;
    const bool pp_forced = ppv && ppv[0] == '1';
    /* a.joint comes in as run_rs's wish; taken where a staged layout fits with it (not with ping-pong forced), else the
     * warpgroups' own tiles as before. */
    const bool joint_try = a.joint && fwd_s1 && stg_ok && !pp_forced;
    /* Resident weights up to kWresMax16 in the 16-bit forward and, where rs_s1_direct, the TF32 stride-1 forward and
     * grad_input (Session 39, runs 397-398: KernelBench 74's TF32 grad_input, 80 KB, resident / per stage 0.749 / 0.814
     * and 0.746 / 0.765 ms; the one suite layer between the limits). */
    const bool wres_big = es == 2 ? !BI : TY == WG_TF32 && fwd_s1 && s1d;
    const int64_t wres_max = wv && wv[0] == '1' ? kMaxSmem : wres_big ? kWresMax16 : kWresMax;
    for (int jt = joint_try; jt >= 0 && pick < 0; --jt) {
        a.joint = jt;
        /* two warpgroups' tiles, or (joint) one of twice the columns */
        spitch = 64 * MQ * a.ps * a.os * (a.joint ? 2 : 1) + 16 / es;
        stg_bytes = (a.joint ? 1 : 2) * a.R * spitch * es;
        /* One-phase layers: no ping-pong by default (run 218, KernelBench 79 strict 0.728 with, 0.658 without). */
        const bool fwd_short = TY == WG_TF32 && !BI && a.ps > 1 && a.os == 1 && (int64_t)a.cin * a.T <= 384;
        for (int p = a.joint ? 0 : rs_pingpong(MQ, fwd_s1, fwd_short); p >= 0 && pick < 0; --p) {
            const int64_t tiles = (int64_t)(p ? a.q_tiles_pp : a.q_tiles) * a.r_tiles * a.N;
            grid = tiles < convt1d_sm_count() ? tiles : convt1d_sm_count();
            const bool wres_ok = grid >= a.r_tiles && wres_bytes <= wres_max && !(wv && wv[0] == '0');
            /* 16-bit weights of two or more chunks resident: both warpgroups on one tile beat ping-pong (run 154,
             * KernelBench 64, ms, resident without / with ping-pong / neither resident (the stages carry the weights)
             * with ping-pong: bf16 1.060 / 1.184 / 1.185, fp16 1.142 / 1.204 / 1.309); with one chunk (KernelBench
             * 74) ping-pong still wins (bf16 0.428 vs 0.458). */
            if (p && !pp_forced && es == 2 && a.nchunk >= 2 && wres_ok) continue;
            const int nbox = p ? MQ / 2 : MQ; /* input boxes per stage */
            for (int k = 0; k < 4 && pick < 0; ++k) {
                const bool wr = !(k & 2), st = !(k & 1); /* k = 0: both, 1: resident, 2: staged, 3: neither */
                if ((wr && !wres_ok) || (st && !stg_ok) || (!st && (a.os > 1 || a.joint))) continue;
                const int txb = (wr ? 0 : CW) + nbox * xbox;
                const int b = (txb + 1023) / 1024 * 1024;
                const int64_t fixed = (wr ? wres_bytes : 0) + (st ? stg_bytes : 0) + 1024 + 1024; /* + barriers, alignment */
                int n = (int)((kMaxSmem - fixed) / b);
                if (n > 8) n = 8;
                if (p && ppo_env == 2 && n > 2) n = 2;
                if (n >= need && (!p || n >= a.nchunk + 1 || (ppo_env && n >= 2)))
                    pick = k, stages = n, sb = b, pp = p, a.txb = txb;
            }
        }
    }
    if (pick < 0) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.pp = pp;
    a.ppo = pp && stages < a.nchunk + 1;
    /* One ordering barrier per stage of the ring (the kernel's comment on PPO); CONVT1D_WGMMA_RS_PPO_K=k at most k
     * (A/B: 1 lets the next tile in only after the last chunk, as in Session 32). */
    const char *pk_v = convt1d_env("CONVT1D_WGMMA_RS_PPO_K");
    a.ppo_k = std::min(stages, kPpoBars);
    if (pk_v && pk_v[0] >= '1' && pk_v[0] <= '9') a.ppo_k = std::min(a.ppo_k, pk_v[0] - '0');
    if (pp) a.q_tiles = a.q_tiles_pp;
    a.wres = !(pick & 2);
    const bool staged = !(pick & 1);
    a.sb = sb;
    a.stages = stages;
    a.wr_off = a.stages * a.sb;
    a.stg_off = staged ? a.wr_off + (a.wres ? (int)wres_bytes : 0) : -1;
    a.spitch = spitch;
    a.bar_off = a.wr_off + (a.wres ? (int)wres_bytes : 0) + (staged ? stg_bytes : 0);
    const int smem = a.bar_off + 1024 + 1024; /* barriers, alignment */
    const char *kv = convt1d_env("CONVT1D_WGMMA_RS_SKEW");
    a.skew_ns = kv && kv[0] ? atoi(kv) : 0;
    if (a.wres) grid = grid / a.r_tiles * a.r_tiles;
    {
        const int64_t all = (int64_t)a.q_tiles * a.r_tiles * a.N; /* the kernel's tile count (ping-pong tiles if pp) */
        a.rx_tq = (int)std::min<int64_t>(all / grid, INT_MAX / 2);
        a.rx_tr = (int)(all % grid);
        if ((int64_t)(a.rx_tq + 1) * a.nchunk > INT_MAX / 2) a.rx = 0;
    }
    /* The lean kernel (fwd_wgmma_rs_kernel LEAN, where it measured faster: 64x2 tiles, and TF32 128x2 tiles on the H200
     * class) wherever the launch needs nothing else: a stride-1 forward (or the stride-1 grad_input, the forward on the
     * adjoint weights), TMA boxes, direct stores, no view; position pairs in 16-bit, no RX in TF32 (so where rs_s1_direct,
     * whose TF32 stride-1 rows store directly without RX; the H100 stages its one-chunk layers of 64 rows). The TF32
     * 128x2 lean kernel (KernelBench 64) ties on the H100 (run 413, ms, with the H200's defaults / without: 1.882 /
     * 1.881, 1.856 / 1.908 in another sweep): H200 class only.
     * CONVT1D_WGMMA_RS_LEAN=0: the full kernel (A/B, tests: same bits). */
    a.lean = fwd_s1 && !staged && a.xstage == XS_TMA && !a.view && MQ == 2 &&
             (BR == 64 || (BR == 128 && TY == WG_TF32 && rich)) && TY != WG_TF32X3 &&
             (es == 4 ? !a.rx : a.pairs) && !switch_off("CONVT1D_WGMMA_RS_LEAN");
    /* Tile order (tile_rt): in the forward whose packed weights (all row tiles) exceed half of L2, groups of row tiles
     * whose weights take about a quarter of it (codec_dec_s8: 75 MB in TF32, groups of 4 of its 24 row tiles; 38 MB in
     * 16-bit, 8 of 24). Run 423 (H100, rotated, ms, row tiles fastest / groups of 2, 4, 8): codec_dec_s8 TF32
     * 1.242 / 1.121 / 1.117 / 1.129, fp16 0.653 / 0.646 / 0.621 / 0.625, bf16 0.633 / 0.617 / 0.601 / 0.603; its DRAM reads
     * 1.06 GB -> 0.49 (TF32), 0.82 -> 0.16 (fp16) by Nsight Compute at groups of 6. Where the weights fit in L2, groups
     * of 2 lose 1-5% (the input is read once per group: upsample_x8, hifigan_up1 / up2, codec_dec_s5), and the
     * strided grad_input gains nothing (codec_dec_s8 1.121 / 1.116 at 4), and split TF32 was not seen to gain (runs
     * 424-425, codec_dec_s8 with the rule / without: 3.148 / 3.126, 3.151 / 3.116; but two identical launches read
     * 3.248 / 3.189 in run 426), so it keeps the old order. Not with resident weights (their blocks
     * keep one row tile), nor on the lean kernel (tile_rt compiled out of it, so its code stays library 415's; the lean
     * layers' weights fit in L2: KernelBench 64's 192 KB). CONVT1D_WGMMA_RS_RGROUP=g: groups of g row tiles wherever
     * allowed; 0: row tiles fastest. After the lean pick, which can change with a.rx above. */
    const char *rg_v = convt1d_env("CONVT1D_WGMMA_RS_RGROUP");
    const int64_t w_tile = (int64_t)CW * a.nchunk, l2 = convt1d_l2_bytes(); /* one row tile's weights */
    a.rgrp = rg_v && rg_v[0] ? atoi(rg_v)
             : !BI && TY != WG_TF32X3 && l2 > 0 && w_tile * a.r_tiles > l2 / 2 ? (int)std::max<int64_t>(2, l2 / 4 / w_tile)
                                                            : 0;
    if (a.wres || a.lean || a.rgrp < 2 || a.rgrp >= a.r_tiles) a.rgrp = 0;
    a.nb = 0;
    a.yvec = 0;
    const int64_t wp_elems = (int64_t)a.T * M_pad * cin_pad;
    const size_t wp_bytes = ((size_t)wp_elems * es * halves + 1023) / 1024 * 1024;
    /* The packed weights: the call's weight cache's copy where it has one (wc: packed on first use), else scratch. */
    CachedPack cp;
    if (wc) cp.get(wc, key, wp_bytes, stream);
    void *scratch = nullptr;
    cudaError_t e = cp.ptr ? cudaSuccess : cudaMallocAsync(&scratch, wp_bytes, stream);
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "%s: scratch: %s", what, cudaGetErrorString(e));
    T *wp = static_cast<T *>(cp.ptr ? cp.ptr : scratch);
    CUtensorMap tmw, tmx;
    memset(&tmx, 0, sizeof(tmx)); /* unused (never read) on the cp.async path */
    if (!make_map(&tmw, wp, es, (uint64_t)cin_pad, (uint64_t)M_pad, (uint64_t)a.T * halves, kBK, (uint32_t)BR,
                  (uint32_t)a.T) ||
        !mkx(tmx)) {
        if (scratch) cudaFreeAsync(scratch, stream);
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    /* The forward right after its weight pack goes as that kernel's programmatic dependent (CONVT1D_WGMMA_PDL=0: a
     * plain launch): the pack's blocks end with pdl_trigger and the producer waits in pdl_wait before its first read,
     * so the launch and prologue overlap the pack's last blocks. Not after a cache fill (an event is recorded between
     * the two), nor where nothing is packed, nor for grad_input (its pack kernels do not trigger). */
    const bool packs = cp.need_pack(), pdl = !BI && packs && !cp.fill && pdl_on();
    e = pack(wp, wp_bytes, M_pad, cin_pad, packs);
    cp.packed(e, stream);
    if (e == cudaSuccess) e = launch_rs_tile<TY, BI>(BR, MQ, tmx, tmw, a, (unsigned)grid, smem, stream, pdl);
    const cudaError_t f = scratch ? cudaFreeAsync(scratch, stream) : cudaSuccess;
    if (e == cudaSuccess) e = f;
    if (e != cudaSuccess) return convt1d_fail(CONVT1D_ERROR_CUDA, "%s launch failed: %s", what, cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

/* The edge kernel (convt1d_fwd_edge) beside the register-A forward instead of after it (session 21): on a second
 * stream that waits for everything before the forward's weight pack, joined back before anything after it, so its blocks
 * take the SMs that the forward's last, partial round leaves idle (its 1024-thread blocks cannot share an SM with the
 * forward's). Not while the stream is being captured into a CUDA graph (the edge then runs after the forward on the
 * same stream, as before). CONVT1D_WGMMA_RS_EDGE_BESIDE=0: always after (A/B). */
struct EdgeBeside {
    bool on = false;
    cudaEvent_t fork = nullptr;
    EdgeBeside() = default;
    EdgeBeside(const EdgeBeside &) = delete;
    EdgeBeside &operator=(const EdgeBeside &) = delete;
    ~EdgeBeside() { /* released once the work recorded before it completes */
        if (fork) cudaEventDestroy(fork);
    }
};

cudaStream_t side_stream() {
    static std::mutex mu;
    static cudaStream_t streams[64];
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return nullptr;
    std::lock_guard<std::mutex> lock(mu);
    if (!streams[dev] && cudaStreamCreateWithFlags(&streams[dev], cudaStreamNonBlocking) != cudaSuccess) {
        cudaGetLastError();
        streams[dev] = nullptr;
    }
    return streams[dev];
}

bool edge_beside_wanted(cudaStream_t stream) {
    const char *v = convt1d_env("CONVT1D_WGMMA_RS_EDGE_BESIDE");
    if (v && v[0] == '0') return false;
    cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    return cudaStreamIsCapturing(stream, &cs) == cudaSuccess && cs == cudaStreamCaptureStatusNone && side_stream();
}

/* Just before the forward's weight pack (the edge reads w as it is): the point the side stream starts from. */
void edge_fork(EdgeBeside &eb, cudaStream_t stream) {
    if (!eb.on) return;
    if (cudaEventCreateWithFlags(&eb.fork, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventRecord(eb.fork, stream) != cudaSuccess) {
        cudaGetLastError();
        eb.on = false;
    }
}

/* The edge columns o >= o_lo: beside the forward where forked, else after it on the same stream. */
convt1d_status edge_launch(EdgeBeside &eb, const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                           void *y, int64_t o_lo, cudaStream_t stream) {
    if (!eb.on) return convt1d_fwd_edge(pr, x, w, bias, y, o_lo, stream);
    cudaStream_t side = side_stream();
    cudaEvent_t join = nullptr;
    convt1d_status st = CONVT1D_SUCCESS;
    if (cudaStreamWaitEvent(side, eb.fork, 0) != cudaSuccess || cudaEventCreateWithFlags(&join, cudaEventDisableTiming) != cudaSuccess) {
        cudaGetLastError();
        st = convt1d_fwd_edge(pr, x, w, bias, y, o_lo, stream);
    } else {
        st = convt1d_fwd_edge(pr, x, w, bias, y, o_lo, side);
        /* Joined back whatever the launch said: the caller's stream must not run ahead of the side stream. */
        if (cudaEventRecord(join, side) != cudaSuccess || cudaStreamWaitEvent(stream, join, 0) != cudaSuccess) {
            cudaGetLastError();
            cudaStreamSynchronize(side);
        }
    }
    if (join) cudaEventDestroy(join);
    return st;
}

/* The register-A forward (fwd_wgmma_rs_kernel): pack, then one persistent launch over the whole batch, x
 * read in place (TMA, or bulk copies per row where TMA cannot address the rows). NOT_SUPPORTED (nothing
 * launched) where x is not 16-byte aligned (and the cp.async fallback cannot take it), the taps spread
 * past the widest window, or two stages (one with allow_one_stage: correct, but the next tile's loads
 * then wait for this tile's MMAs) do not fit. */
template <int TY>
convt1d_status run_rs(const convt1d_problem &pr, const void *x, const void *w, WgArgs a, int BR, int MQ, int K, int d,
                      bool allow_one_stage, cudaStream_t stream) {
    typedef typename wg_type<TY>::T T;
    const convt1d_params &P = pr.p;
    constexpr int es = (int)sizeof(T), kBK = kRow / es, VE = 16 / es;
    const int cin = (int)P.in_channels, L = (int)P.in_length;
    if (a.dj < 1) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.pair32 = 0;
    {
        /* Position pairs (PAIRS) for the 16-bit stride-1 forward (KernelBench 64 / 74 and their grad_input,
         * the adjoint forward): run 59 measured KernelBench 64 bf16 1.25 -> 1.09 ms, fp16 1.32 -> 1.21, but then
         * KernelBench 74 (dilation 3, odd tap shifts: a test per load) 0.58 -> 0.67; with the word test one per
         * tap (run 166) 74 gains too: fp16 0.444 -> 0.430, bf16 0.435 -> 0.424, grad_input 1%. Phase-merged
         * layers (ps > 1, outputs ps apart) are slower with pairs. CONVT1D_WGMMA_RS_PAIRS=0 turns them off. */
        const char *pv = convt1d_env("CONVT1D_WGMMA_RS_PAIRS");
        a.pairs = es == 2 && a.ps == 1 && P.stride == 1 && !(pv && pv[0] == '0');
    }
    /* Input staging: TMA where it can address the rows (x 16-byte aligned, rows a 16-byte multiple); else
     * one bulk copy per box row (x 16-byte aligned). CONVT1D_WGMMA_RS_BULK=1 takes the bulk copies even
     * where TMA could, =0 never (then the session-7 8-byte cp.async in fp32, rows an 8-byte multiple);
     * CONVT1D_WGMMA_RS_CPASYNC=1 forces the cp.async (its first, 4-byte form ran KernelBench 74's bf16
     * grad_input at 1.46 ms against 0.67 on mma.sync, run 35), =0 never. */
    const char *cv = convt1d_env("CONVT1D_WGMMA_RS_CPASYNC"), *bv = convt1d_env("CONVT1D_WGMMA_RS_BULK");
    const char cpe = cv && cv[0] ? cv[0] : 'u', bke = bv && bv[0] ? bv[0] : 'u';
    const bool x16 = ((uintptr_t)x & 15) == 0;
    const bool tma_ok = x16 && ((int64_t)L * es) % 16 == 0;
    const bool cp_ok = ((uintptr_t)x & 7) == 0 && ((int64_t)L * es) % 8 == 0;
    /* Rows of a pitch TMA cannot take, read as groups of xg rows (WgArgs::xg), where every output the kernel
     * stores reads only inside its row: a box column past a row's end (or before its start) then brings the
     * neighbouring row's values instead of zeros, and only outputs that are not stored use them. That holds
     * at stride 1 when p >= (T-1)*dj and L_out - 1 + p <= L - 1, as in the stride-1 grad_input of a layer
     * without padding (the adjoint forward: KernelBench 64, grad_y rows of 65538 values; 74 in 16-bit).
     * CONVT1D_WGMMA_RS_GROUPS=0: never (those rows go by bulk copies, as before); =1: grouped rows or
     * nothing (NOT_SUPPORTED where rows TMA cannot take do not qualify: tests see which path ran). */
    a.xg = 1;
    {
        const char *gv = convt1d_env("CONVT1D_WGMMA_RS_GROUPS");
        const int xg = tma_row_group((int64_t)L * es);
        const bool inside = a.ps == 1 && a.os == 1 && a.p - (int64_t)(a.T - 1) * a.dj >= 0 && (int64_t)a.L_out - 1 + a.p <= L - 1;
        /* xg <= 4: a k-step's channel rows (8 fp32, 16 16-bit) stay in one box of kBK/xg rows. */
        if (x16 && !tma_ok && cpe != '1' && bke != '1' && !(gv && gv[0] == '0') && inside && xg <= 4 &&
            cin % xg == 0 && (int64_t)xg * L < INT_MAX / 2)
            a.xg = xg;
        if (gv && gv[0] == '1' && !tma_ok && a.xg == 1) return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    if (a.xg > 1) {
        a.xstage = XS_TMA;
        a.kskip = 0; /* a chunk's channels are spread over its rows */
    } else if (cpe == '1') {
        if (!cp_ok) return CONVT1D_ERROR_NOT_SUPPORTED;
        a.xstage = XS_CPASYNC;
    } else if (bke == '1' || (!tma_ok && x16 && bke != '0')) {
        /* By default only with a tile per SM at least (run 72: batch-1 single_utterance_x8, L = 861, 32
         * tiles of 256 rows x 256 positions: fp32 0.128 ms vs 0.050 on the mma.sync kernel), and with rows of 128
         * positions at least: a tile holds one sample's positions, so short rows leave most of its MMAs and of each
         * row's copy empty (run 446, H100, dac_44k_up1_train, 8 x 1536 -> 768 channels, stride 8, 35 positions a
         * sample: fp16 0.572 ms here against 0.157 on the SS kernel, which then takes the layer). */
        const int64_t tiles = P.batch * ((a.L_out / a.ps + 255) / 256) * ((a.cout * a.ps + 255) / 256);
        const int64_t positions = (a.L_out + a.ps - 1) / a.ps; /* a sample's output positions per phase */
        if (!x16 || (bke != '1' && (tiles < convt1d_sm_count() || positions < 128))) return CONVT1D_ERROR_NOT_SUPPORTED;
        a.xstage = XS_BULK;
    } else if (tma_ok) {
        a.xstage = XS_TMA;
    } else if (cp_ok && es == 4 && cpe != '0') { /* run 36: KernelBench 64 grad_input TF32 2.98 vs 3.90 ms */
        a.xstage = XS_CPASYNC;
    } else {
        return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    a.x = x;
    a.cin = cin;
    a.L = L;
    /* One group's view (convt1d_fwd_wgmma, groups > 1): x rows xn apart per sample, read by TMA boxes (the map's
     * channel extent is the group's: zeros past it), not as grouped rows. */
    const bool view = a.view != 0;
    if (!a.xn) a.xn = cin;
    if (view && (a.xstage != XS_TMA || a.xg != 1)) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t spread = (int64_t)(a.T - 1) * a.dj;
    if (spread > 128) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.hal = (int)((spread + VE - 1) / VE * VE);
    /* Window columns a box row must hold: 128 + hal; grouped boxes sit up to VE - 1 columns off that. */
    int64_t need = 128 + a.hal;
    for (int m = 1; m < a.xg; ++m)
        need = std::max(need, (int64_t)128 + a.hal + m * L - group_col(m, L, a.hal - (int)spread, VE));
    const int rmod = es == 4 ? 32 : 64; /* row pitch 8 (mod rmod) elements: conflict-free A loads */
    a.win = (int)((need - 8 + rmod - 1) / rmod * rmod + 8); /* the least such pitch >= need */
    if (a.win > 256) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.xpitch = a.win * es;
    a.wcols = 128 + a.hal;
    if (a.xstage == XS_BULK) /* 32 (fp32) / 16 (16-bit) bytes (mod 128): the dense layout's pitch */
        a.xpitch = bulk_row_pitch((int64_t)L * es, a.wcols * es, es == 4 ? 32 : 16);
    const int RT = a.R * a.ps, M = a.cout * a.ps;
    a.r_tiles = (M + RT - 1) / RT;
    /* Spare rows (Session 26): where a stride that does not divide the tile rows leaves BR - RT rows of every tile
     * unused, the channels past r_tiles*R fill them as single phase rows (PackMap::xc0, the kernel's spare_row), so
     * the rows take ceil(M / BR) tiles, not ceil(C_out / R): codec_dec_s5 (256 channels x 5 phases) 5 row tiles of
     * 256 instead of 6 (the sixth held one channel), 10 of 128 instead of 11. The kernel looks for them in the last
     * 8-row group only: up to 8 spare rows (every stride up to 9, larger ones where BR mod s <= 8).
     * CONVT1D_WGMMA_RS_SPARE=0: whole channels only (A/B). */
    {
        const char *sv = convt1d_env("CONVT1D_WGMMA_RS_SPARE");
        if (a.ps > 1 && BR - RT > 0 && BR - RT <= 8 && !(sv && sv[0] == '0')) a.r_tiles = (M + BR - 1) / BR;
    }
    const int BQ = 128 * MQ, cm = a.ps * a.os; /* output columns per position q: o = q*cm + r - p */
    a.qa = a.p / cm / VE * VE; /* box starts 16-byte aligned: q0 - hal a multiple of VE */
    const int64_t q_max = ((int64_t)a.p + a.L_out - 1) / cm;
    const int64_t q_tiles = (q_max - a.qa + BQ) / BQ;
    if (q_tiles > INT_MAX / 2 || a.r_tiles > 65535) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.q_tiles = (int)q_tiles;
    a.q_tiles_pp = (int)((q_max - a.qa + BQ / 2) / (BQ / 2)); /* ping-pong tiles of 64*MQ positions */
    a.N = (int)P.batch;
    /* One staged tile for both warpgroups (WgArgs::joint; rs_launch takes it where the staged layout fits): TF32 at
     * stride 1, the forward itself (run 242, KernelBench 74 TF32 0.670 vs 0.715 ms with the warpgroups' own 512-byte
     * row pieces and ping-pong; split TF32 loses, 1.100 vs 1.005, and 16-bit stages nothing at stride 1).
     * CONVT1D_WGMMA_RS_JOINT=0/1: never / wherever it fits (A/B, tests). */
    {
        const char *jv = convt1d_env("CONVT1D_WGMMA_RS_JOINT");
        a.joint = jv && jv[0] ? jv[0] == '1' : TY == WG_TF32 && !pr.w_adjoint;
    }
    {
        const char *lv = convt1d_env("CONVT1D_WGMMA_RS_LDM");
        /* Never two ldmatrix taps in a row: the kernel loads the second one's fragments while the first one's last
         * MMA may still read registers that ptxas gave to both (see the kernel's tap loop). Tap j takes ldmatrix
         * where j*dj is a multiple of 8, so j and j + 1 both do only where dj is (dilations that are multiples of
         * 8 at stride 1, of 8*s in the one-phase view); those layers take the 16-bit loads on every tap. */
        a.ldm = !(lv && lv[0] == '0') && (a.dj % 8 != 0 || a.T < 2);
    }
    /* TF32 input boxes rounded once per stage (WgArgs::rx), where TMA stages them: by default on the stride-1 64-row
     * tiles (KernelBench 74), the one kind of layer it pays on. Run 296 (ms, rotated, on / off; before the kernel's
     * wait at a tap's first loads): KernelBench 74 0.638 / 0.672; hifigan_up3 / up4 and grouped_g4 equal; but the
     * phase-merged 256-row layers ~10% slower (upsample_x8 2.20 / 2.00, codec_dec_s8 1.30 / 1.16: their two 81 KB
     * stages leave the pass between a stage's arrival and its use on the critical path), hifigan_up2 (128x2, stride 8)
     * 1.233 / 1.189, KernelBench 64 (128x2) 2.12 / 1.99. With the wait (runs 299, 300): KernelBench 74 0.646 / 0.664,
     * 0.643 / 0.657; hifigan_up4 equal. Not on the H200 (convt1d_dram_rich), where KernelBench 74 stores directly and
     * RX costs that form (run 380, ms: direct 0.602 without RX, 0.724 with it in run 379; staged 0.655 with, 0.678
     * without). CONVT1D_WGMMA_RS_RX=0/1: never / on every 64-row tile TMA stages (A/B, tests). */
    {
        const char *rv = convt1d_env("CONVT1D_WGMMA_RS_RX");
        const bool can = TY == WG_TF32 && a.xstage == XS_TMA && BR == 64; /* instantiated at 64 rows only */
        a.rx = can && (rv && rv[0] ? rv[0] == '1' : a.ps == 1 && a.os == 1 && !rs_s1_direct(a, BR));
    }
    bool only_beside = false;
    /* The edge kernel reads and writes whole tensors: not in a group's view. */
    int64_t o_lo = view ? -1 : rs_edge_drop(pr, a, MQ, q_max, &only_beside);
    EdgeBeside eb; /* asked (capture state, side stream) only for a dropped tile */
    if (o_lo >= 0) {
        eb.on = edge_beside_wanted(stream);
        if (only_beside && !eb.on) o_lo = -1;
    }
    if (o_lo >= 0) --a.q_tiles; /* its positions' outputs, o >= o_lo, come from convt1d_fwd_edge below */
    const convt1d_status st =
        rs_launch<TY, false>(a, BR, MQ, (kBK * a.xpitch + 15) & ~15, allow_one_stage, stream, "wgmma forward", pr.wcache,
                             pr.wcache ? pack_key<TY>(pr, w, a, BR, K, d, cin, a.nchunk * kBK, a.r_tiles * BR, a.r_tiles * a.R)
                                       : PackKey(),
                                [&](CUtensorMap &tmx) {
                                    return a.xstage != XS_TMA ||
                                           make_group_map(&tmx, x, es, L, cin, a.N, a.xg, (uint32_t)a.win, (uint32_t)(kBK / a.xg),
                                                          (int64_t)a.xn * L);
                                },
                                [&](typename wg_type<TY>::T *wp, size_t wp_bytes, int M_pad, int cin_pad, bool need) {
                                    /* The edge kernel reads w itself, not the packed copy: its fork goes before the
                                     * pack, so that nothing sits between the pack and the forward's programmatic launch. */
                                    edge_fork(eb, stream);
                                    return need ? pack_weights<TY>(pr, w, wp, wp_bytes, a, BR, K, d, cin, cin_pad, M_pad,
                                                                   a.r_tiles * a.R, stream)
                                                : cudaSuccess; /* the cache's copy */
                                });
    if (st != CONVT1D_SUCCESS || o_lo < 0) return st;
    return edge_launch(eb, pr, x, w, a.bias, a.y, o_lo, stream);
}

/* The strided grad_input stages grad_y by bulk copies where grad_y is 16-byte aligned (CONVT1D_WGMMA_RS_BULK=0:
 * never); run_rs_bi and rs_bi_pays ask the same question. */
bool bi_bulk(const void *gy) {
    const char *bv = convt1d_env("CONVT1D_WGMMA_RS_BULK");
    return ((uintptr_t)gy & 15) == 0 && !(bv && bv[0] == '0');
}

/* Strided grad_input on the register-A kernel (BI): grad_x[n, ci, l] = sum_{j, co, b} gy[n, co, (l+j)*s + b - p]
 * * w[ci, co, k] with k*d = j*s + b (convt1d_bwd_input_wgmma), i.e. the forward GEMM over the s*C_out phase
 * channels of grad_y, read in place: the producer copies each grad_y row segment (one bulk copy per row,
 * or 4-byte cp.async) and the consumers pick phase b of position u at u*s + b, so no planes pass. The taps read ahead (l + j); slot
 * j' = T-1-j and boxes shifted by woff = T-1 put them in the kernel's usual order (col = pos + hal - j').
 * Any stride up to 64 (a chunk of 32 fp32 / 64 16-bit channels spans whole or partial grad_y rows).
 * Without the bulk copies (grad_y not 16-byte aligned, or CONVT1D_WGMMA_RS_BULK=0): NOT_SUPPORTED for
 * 16-bit with an odd grad_y length or a grad_y not 4-byte aligned (the words would straddle rows). */
template <int TY>
convt1d_status run_rs_bi(const convt1d_problem &pr, const void *gy, const void *w, WgArgs a, int BR, int MQ, int K,
                         int d, const BwdInput &bi, bool allow_one_stage, cudaStream_t stream) {
    typedef typename wg_type<TY>::T T;
    const convt1d_params &P = pr.p;
    constexpr int es = (int)sizeof(T), kBK = kRow / es, VE = 16 / es;
    /* Staging: bulk copies per grad_y row (grad_y 16-byte aligned; CONVT1D_WGMMA_RS_BULK=0 never), else the
     * 4-byte cp.async (grad_y 4-byte aligned, in 16-bit an even length: whole words in a row). */
    const bool bulk = bi_bulk(gy);
    if (!bulk && (((uintptr_t)gy & 3) != 0 || (es == 2 && (bi.L_out & 1)))) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int cg = bi.s * bi.cout; /* GEMM input channels */
    a.nchunk = (cg + kBK - 1) / kBK;
    a.xstage = bulk ? XS_BULK : XS_CPASYNC;
    a.x = gy;
    a.cin = cg;
    a.L = bi.L_out;
    a.gs = bi.s;
    a.gcout = bi.cout;
    a.gL = bi.L_out;
    a.gp = bi.p;
    a.dj = 1;
    a.woff = a.T - 1;
    /* 16-bit: a box row starts on an even grad_y element. Its first position ustart = q0 + 128*box - hal +
     * T-1 has the parity of T-1 (q0, 128*box, hal even), so one shift serves every row and chunk. */
    a.gsh = es == 2 && !bulk ? (int)((((int64_t)a.woff * bi.s - bi.p) % 2 + 2) % 2) : 0;
    /* 16-bit, even stride, padding and grad_y length, bulk staging (no gsh): every fragment register's pair
     * is one aligned word (the box rows start at even elements: c0 and the row pitch multiples of 4).
     * CONVT1D_WGMMA_RS_PAIR32=0: two 16-bit loads as elsewhere. */
    const char *pv = convt1d_env("CONVT1D_WGMMA_RS_PAIR32");
    a.pair32 = es == 2 && bulk && bi.s % 2 == 0 && bi.p % 2 == 0 && bi.L_out % 2 == 0 && !(pv && pv[0] == '0');
    a.grpc = (kBK + bi.s - 1) / bi.s + (kBK % bi.s ? 1 : 0);
    a.hal = (a.T - 1 + VE - 1) / VE * VE;
    a.win = 128 + a.hal;
    /* Row pitch: win*s + 1 elements at least, in 4-byte words 16 (mod 32) (the A loads of the two
     * channel rows of a pair of lanes fall in different bank halves). Bulk: bulk_row_pitch, 64 bytes (mod
     * 128) as here. */
    int words = ((a.win * bi.s + 1) * es + 3) / 4;
    words = (words + 15) / 32 * 32 + 16;
    a.gpitch = words * 4 / es;
    a.xpitch = a.gpitch * es;
    a.wcols = a.win * bi.s;
    if (bulk) a.xpitch = bulk_row_pitch((int64_t)bi.L_out * es, a.wcols * es, 64);
    const int RT = a.R * a.ps, M = a.cout * a.ps;
    a.r_tiles = (M + RT - 1) / RT;
    const int BQ = 128 * MQ;
    a.qa = 0;
    const int64_t q_tiles = ((int64_t)a.L_out + BQ - 1) / BQ;
    if (q_tiles > INT_MAX / 2 || a.r_tiles > 65535) return CONVT1D_ERROR_NOT_SUPPORTED;
    a.q_tiles = (int)q_tiles;
    a.q_tiles_pp = (int)(((int64_t)a.L_out + BQ / 2 - 1) / (BQ / 2)); /* ping-pong tiles of 64*MQ positions */
    a.N = (int)P.batch;
    return rs_launch<TY, true>(a, BR, MQ, (a.grpc * a.xpitch + 15) & ~15, allow_one_stage, stream, "wgmma grad_input",
                               nullptr, PackKey(), /* a gradient: no weight cache */
                               [](CUtensorMap &) { return true; }, /* the input comes by bulk copies or cp.async */
                               [&](typename wg_type<TY>::T *wp, size_t, int M_pad, int cin_pad, bool) {
                                   return launch_pack_bwd<TY>(static_cast<const typename wg_type<TY>::T *>(w), wp, a.cout,
                                                              bi.cout, K, bi.s, d, M_pad, cin_pad, a.T,
                                                              (int64_t)a.T * M_pad * cin_pad, 1, stream);
                               });
}

/* Tile rows: 128 at two blocks per SM (one block's epilogue and pipeline fill overlap the other's
 * MMAs: hifigan_up1 fp16 0.455 vs 0.58 at one block, 0.51 at 256 rows); 256 rows for long reductions,
 * where L2 reads per multiply-add matter more than the per-tile overhead (codec_dec_s8, C_in*T 3072:
 * fp16 0.83-0.91 vs 0.98, TF32 1.29 vs 1.59), if that still gives two blocks per SM.
 * CONVT1D_WGMMA_BR=64/128/256/128x2 overrides (x2: two blocks per SM). */
void pick_tile(int ty, const WgArgs &a, int64_t work, int64_t batch, int *BRp, int *minbp) {
    const int64_t M = (int64_t)a.cout * a.ps;
    const int64_t q_blocks = q_tile_count(a) * batch;
    const int rows256 = 256 / a.ps * a.ps; /* whole channels per 256-row tile */
    int BR = 64, minb = 1;
    if (ty != WG_TF32X3 && M > 128 && work >= 2048 && q_blocks * ((M + rows256 - 1) / rows256) >= 2 * convt1d_sm_count()) {
        BR = 256;
    } else if (M > 64) {
        BR = 128;
        minb = ty == WG_TF32X3 ? 1 : 2; /* split operands: a 64 KB stage, two blocks would hold one each */
    }
    const char *bv = convt1d_env("CONVT1D_WGMMA_BR");
    if (bv && bv[0]) {
        const int b = atoi(bv);
        if (b == 64 || b == 128 || b == 256) {
            BR = b;
            minb = b == 128 && strchr(bv, 'x') ? 2 : 1;
        }
    }
    *BRp = BR;
    *minbp = minb;
}

/* The remaining launch fields, then run() for the kind. */
convt1d_status dispatch(int ty, const convt1d_problem &pr, const void *x, const void *w, WgArgs a, int BR, int minb,
                        int K, int d, int64_t gemm_cin, cudaStream_t stream, const BwdInput *bi) {
    a.R = BR / a.ps;
    const int es = ty >= WG_TF32 ? 4 : 2;
    a.nchunk = (int)((gemm_cin + kRow / es - 1) / (kRow / es));
    a.yvec = 0;
    a.qa = 0;
    a.stages = 0;
    a.nb = 0;
    switch (ty) {
    case WG_F16: return run<WG_F16>(pr, x, w, a, BR, minb, K, d, stream, bi);
    case WG_BF16: return run<WG_BF16>(pr, x, w, a, BR, minb, K, d, stream, bi);
    case WG_TF32: return run<WG_TF32>(pr, x, w, a, BR, minb, K, d, stream, bi);
    default: return run<WG_TF32X3>(pr, x, w, a, BR, minb, K, d, stream, bi);
    }
}

/* Where the register-A kernel replaces the transpose + SS kernel and the mma.sync kernel. Measured on an
 * H200 (run 33, ms, RS vs what was shipped): it wins on KernelBench 64 (TF32 1.80 vs 3.80, 16-bit
 * 1.35-1.41 vs 2.13), KernelBench 74 TF32 (0.78 vs 1.01), hifigan_up3/up4 in every mode (strict 1.81
 * vs 3.50), upsample_x8 in every mode (TF32 2.16 vs 2.71) and codec_dec_s8 except split TF32. It
 * lost where half of its work is zeros (16-bit with C_in <= 32, phases without taps) until session 8
 * (below), and still loses on long split-TF32 reductions (codec_dec_s8, C_in*T = 3072: 3.50 vs 2.97). */
bool rs_pays(int ty, const convt1d_params &P, const WgArgs &a, int64_t work) {
    /* Session 8 (run 54, ms, RS vs not, after the RS kernel's trims): KernelBench 79 bf16 0.68 vs 0.76,
     * strict 0.97 vs 1.21, TF32 0.85-0.97 vs 0.81 (phases without taps, gcd(s, d) > 1: TF32 stays off);
     * 16-bit with C_in <= 32 no longer loses (KernelBench 74 0.754 vs 0.762, run 49). */
    if (ty == WG_TF32 && convt1d_pl_gcd(P.stride, P.dilation) > 1) return false; /* phases without taps */
    if (ty == WG_TF32X3 && work > 1024) return false;
    return a.ps <= 8;
}

/* Where the register-A kernel takes the strided grad_input (run 38, H200, ms, RS vs the planes-transpose +
 * SS / mma.sync paths): hifigan_up3 bf16 0.99 vs 2.89 (cuDNN 1.23), up2 0.77 vs 1.89, up4 0.96 vs 1.90,
 * upsample_x8 1.38 vs 2.26, TF32 1.16-2.10 vs 1.74-2.82. It loses with phases that no tap reaches
 * (gcd(s, d) > 1: KernelBench 79 TF32 1.31 vs 0.88), on very long reductions (codec_dec_s8, s*C_out*T =
 * 12288: TF32 1.28 vs 1.15, strict 3.30 vs 2.63; split TF32 already past 2048: codec_dec_s5, 2560, 1.07 vs
 * 0.96 in run 40, upsample_x8 4096 equal) and with too few tiles for the GPU (batch-1 single_utterance_x8,
 * 14 tiles: 0.154 vs 0.104). Stride 5 (run 40): codec_dec_s5 bf16 0.37 vs 0.54. */
bool rs_bi_pays(int ty, const convt1d_params &P, const WgArgs &a, int64_t work, bool bulk, bool units) {
    /* With grad_y staged by bulk copies (run 73, ms, forced RS vs shipped) it wins there too: KernelBench 79
     * bf16 0.63 vs 1.16 (cuDNN 0.75), TF32 0.80 vs 0.88, strict 1.10 vs 1.18. */
    const int64_t tiles = P.batch * ((P.in_length + 255) / 256) * ((a.cout + 255) / 256);
    /* 16-bit where the SS path's planes are a unit transpose (s*es = 16: stride 8; Session 14) and the register-A
     * kernel has under four tiles per SM: the SS path wins there since that transpose runs at the copy bandwidth
     * (run 136, ms, bf16: hifigan_up1, 256 tiles, 0.336 vs 0.382, cuDNN 0.339; upsample_x8, 1024 tiles, RS 1.22-1.25
     * vs 1.31). */
    if ((ty == WG_F16 || ty == WG_BF16) && P.stride == 8 && units && tiles < 4 * (int64_t)convt1d_sm_count())
        return false;
    /* Tiles for every SM; 7/8 of them from a reduction of 256 (s*C_out*T) since Session 50
     * (CONVT1D_WGMMA_RS_BI_MINTILES=n: n tiles, for A/B). Run 453 (H100, 132 SMs, ms, 7/8 / every SM, cuDNN beside):
     * bigvgan_v2_up4_train (4 x 192 -> 96, stride 2, L 8192, 128 tiles, reduction 384) TF32 0.064 / 0.134 (0.076),
     * bf16 0.063 / 0.126 (0.063), its _infer (118 tiles) alike; encodec_24k_up3_infer (118, 512) strict 0.066 / 0.108;
     * hifigan_v1_up3_train (128, 256) bf16 0.052 / 0.065. Under 256 the register-A kernel loses: hifigan_v2_up3_train
     * (16 x 32 -> 16, 128 tiles, reduction 64) TF32 0.024 / 0.012. */
    const char *mv = convt1d_env("CONVT1D_WGMMA_RS_BI_MINTILES");
    const int64_t sms = convt1d_sm_count();
    const int64_t min_tiles = mv && atoi(mv) > 0 ? atoi(mv) : work >= 256 ? (sms * 7 + 7) / 8 : sms;
    return (bulk || convt1d_pl_gcd(P.stride, P.dilation) == 1) && work <= (ty == WG_TF32X3 ? 2048 : 4096) &&
           tiles >= min_tiles;
}

/* Register-A tile: BR rows (64 / 128 / 256 by the GEMM rows C_out*s) x 128*MQ positions. Split TF32 keeps
 * a second accumulator, so at most 128 accumulator registers per thread there, and its weights take
 * twice the room: 64x2 when 128x1 leaves no room for two stages (KernelBench 64: 3 taps x 128 rows).
 * CONVT1D_WGMMA_RS_TILE=64x1 / 64x2 / 128x1 / 128x2 / 256x1 overrides (rows x MQ). */
convt1d_status dispatch_rs(int ty, const convt1d_problem &pr, const void *x, const void *w, WgArgs a, int K, int d,
                           cudaStream_t stream, const BwdInput *bi = nullptr) {
    const int64_t M = (int64_t)a.cout * a.ps;
    const int es = ty >= WG_TF32 ? 4 : 2;
    a.nchunk = (int)((pr.p.in_channels + kRow / es - 1) / (kRow / es));
    {
        /* The k-step loop's A/B switches: CONVT1D_WGMMA_RS_KSKIP=0 runs all four k-steps of half-empty chunks,
         * CONVT1D_WGMMA_RS_HOIST=0 tests the 16-bit pairs' words in every load; the epilogue's:
         * CONVT1D_WGMMA_RS_PFAST=0 stores phase-merged rows through the checked loops on every tile. */
        const char *kv = convt1d_env("CONVT1D_WGMMA_RS_KSKIP"), *hv = convt1d_env("CONVT1D_WGMMA_RS_HOIST");
        const char *fv = convt1d_env("CONVT1D_WGMMA_RS_PFAST");
        a.kskip = !(kv && kv[0] == '0');
        a.hoist = !(hv && hv[0] == '0');
        a.pfast = !(fv && fv[0] == '0');
    }
    int BR = 64, MQ = 2;
    if (M > 64) BR = 128, MQ = ty == WG_TF32X3 ? 1 : 2;
    /* 256x1 past 128 rows, but 128x2 for a forward up to 1024 rows (run 51, ms: hifigan_up2 16-bit 0.95 vs
     * 1.05, TF32 1.35 vs 1.38; 2048 rows and more, and every strided grad_input, lose with it). */
    /* On the H200 (convt1d_dram_rich) 256x1 wins at 1024 rows too (runs 378-379, hifigan_up2, ms, 256x1 / 128x2:
     * TF32 1.078-1.090 / 1.203-1.224, fp16 0.656-0.673 / 0.687-0.688, bf16 0.629-0.642 / 0.649-0.651), and on the H100
     * with today's kernels (run 413, rotated, ms, 256x1 / 128x2: TF32 1.083 / 1.220, fp16 0.632 / 0.668, bf16 0.620 /
     * 0.642): 256x1 past 512 rows on both cards. */
    if (M > 128 && ty != WG_TF32X3 && (bi || M > 512)) BR = 256, MQ = 1;
    /* 16-bit phase-merged rows that cannot go out as pairs of adjacent phases (ypair: ps, L_out and p even) are stored
     * through the staged tile, which does not fit beside two 256-row stages (direct stores then, one 2-byte element
     * per store, ps elements apart); 128x2 tiles fit it (run 227, codec_dec_s5, ms, 128x2 / 256x1: fp16 0.245 / 0.294,
     * bf16 0.239 / 0.293; its 256-row tiles also held 51 whole channels, 6 row tiles for 256). TF32's staged 128x2 tile
     * does not fit either (0.488 / 0.467): it keeps 256x1. With spare rows (run_rs; run 280, 5 row tiles of 256, 10 of
     * 128) the same: fp16 0.227 / 0.263, bf16 0.225 / 0.261, TF32 0.452 / 0.424. */
    if (BR == 256 && !bi && es == 2 && a.ps > 1 && (a.ps % 2 || a.L_out % 2 || a.p % 2)) BR = 128, MQ = 2;
    const char *tv = convt1d_env("CONVT1D_WGMMA_RS_TILE");
    bool forced = false;
    if (tv && tv[0]) {
        int b = 0, m = 0;
        if (sscanf(tv, "%dx%d", &b, &m) == 2 &&
            ((b == 64 && (m == 1 || m == 2)) || (b == 128 && (m == 1 || m == 2)) || (b == 256 && m == 1)) &&
            (ty != WG_TF32X3 || b == 64 || (b == 128 && m == 1)))
            BR = b, MQ = m, forced = true;
    }
    /* Tries: the pick at two stages; then 64x2 (less weight room per stage); then either at one stage; one-phase
     * layers (os > 1) then 64x1 (their staged tile grows with the stride: 64x2 past s = 2 does not fit in TF32). */
    const int tries[6][3] = {{BR, MQ, 0}, {64, 2, 0}, {BR, MQ, 1}, {64, 2, 1}, {64, 1, 0}, {64, 1, 1}};
    for (int i = 0; i < (a.os > 1 ? 6 : 4); ++i) {
        const int br = tries[i][0], mq = tries[i][1];
        if ((forced && (br != BR || mq != MQ)) || br < a.ps) continue; /* whole channels per tile */
        a.R = br / a.ps;
        const bool one = tries[i][2] != 0;
        convt1d_status st;
        if (bi) {
            switch (ty) {
            case WG_F16: st = run_rs_bi<WG_F16>(pr, x, w, a, br, mq, K, d, *bi, one, stream); break;
            case WG_BF16: st = run_rs_bi<WG_BF16>(pr, x, w, a, br, mq, K, d, *bi, one, stream); break;
            case WG_TF32: st = run_rs_bi<WG_TF32>(pr, x, w, a, br, mq, K, d, *bi, one, stream); break;
            default: st = run_rs_bi<WG_TF32X3>(pr, x, w, a, br, mq, K, d, *bi, one, stream); break;
            }
        } else {
            switch (ty) {
            case WG_F16: st = run_rs<WG_F16>(pr, x, w, a, br, mq, K, d, one, stream); break;
            case WG_BF16: st = run_rs<WG_BF16>(pr, x, w, a, br, mq, K, d, one, stream); break;
            case WG_TF32: st = run_rs<WG_TF32>(pr, x, w, a, br, mq, K, d, one, stream); break;
            default: st = run_rs<WG_TF32X3>(pr, x, w, a, br, mq, K, d, one, stream); break;
            }
        }
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
    }
    return CONVT1D_ERROR_NOT_SUPPORTED;
}

}  // namespace

/* CONVT1D_WGMMA (read at every call, for tests and A/B timing): unset, the heuristic; 0 off; 1 every
 * shape the SS kernel takes. CONVT1D_WGMMA_BR=64/128/256/128x2 overrides its tile (rows; x2: two blocks per
 * SM). CONVT1D_WGMMA_RS: unset, the register-A kernel where rs_pays() (only while CONVT1D_WGMMA is unset);
 * 0 never; 1 wherever it can take the shape. */
namespace {
/* The forward kinds' common limits (groups 1, sizes in their 32-bit index math, an sm_90a build on an sm_90 GPU):
 * the operand kind, or -1 where the wgmma forwards decline. */
int fwd_kind(const convt1d_problem &pr) {
    const convt1d_params &P = pr.p;
    const int ty = wg_kind(pr.dtype, pr.math);
    if (ty < 0 || P.groups != 1 || P.batch == 0) return -1;
    if (P.in_length >= INT_MAX / 2 || pr.out_length >= INT_MAX / 2 || P.batch > 65535 || P.in_channels > 65535 ||
        P.out_channels > 65535 || P.kernel_size > 4096 || P.dilation > 65535 || P.stride > 64 || P.padding > INT_MAX / 4)
        return -1;
    if (convt1d_sm_major() != 9 || !sm90a_built<fwd_wgmma_kernel<WG_BF16, 128, 1>>()) return -1;
    return ty;
}

WgArgs fwd_args(const convt1d_problem &pr, const void *bias, void *y) {
    WgArgs a;
    a.xg = 1;
    a.ldm = 0;
    a.rx = 0;
    a.lean = 0;
    a.bias = bias;
    a.y = y;
    a.cout = (int)pr.p.out_channels;
    a.L_out = (int)pr.out_length;
    a.p = (int)pr.p.padding;
    a.ps = (int)pr.p.stride;
    a.os = 1;
    a.joint = 0;
    a.yn = a.cout;
    a.gn = 0;
    a.xn = 0;
    a.view = 0;
    return a;
}
} // namespace

namespace {
/* The register-A forward's taps: stride 1, every tap (d apart); else the phase-merged rows' input shifts. */
void fwd_taps(const convt1d_params &P, WgArgs &a) {
    if (P.stride == 1) {
        a.T = (int)P.kernel_size;
        a.dj = (int)P.dilation;
    } else {
        a.T = (int)(((int64_t)(P.kernel_size - 1) * P.dilation) / P.stride) + 1;
        a.dj = 1;
    }
}

/* Grouped layers (Session 24): the register-A forward once per group, on the group's view of x, w, bias and y (their
 * first channel; xn / yn rows per sample), as a groups-1 problem of C_in/groups and C_out/groups channels. Only where
 * every group's view is aligned as the whole tensors are (every launch then makes the same choices) and x goes by TMA
 * boxes (run_rs); by default for up to 8 groups of 32+ channels where rs_pays, not in TF32 (run 262, grouped_g4, ms,
 * per group / the mma.sync kernel: fp16 0.638 / 0.867, bf16 0.639 / 0.868, split TF32 1.366 / 2.167, but TF32 1.228 /
 * 1.121). CONVT1D_WGMMA_RS=1: wherever the views allow; CONVT1D_WGMMA=0 / CONVT1D_WGMMA_RS=0: never (the mma.sync
 * kernel, which takes groups on its grid). */
convt1d_status fwd_wgmma_grouped(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                 cudaStream_t stream) {
    const char *ev = convt1d_env("CONVT1D_WGMMA"), *rv = convt1d_env("CONVT1D_WGMMA_RS");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1, rs_env = rv && rv[0] ? (rv[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    if (env == 0 || rs_env == 0 || pr.w_adjoint) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int G = (int)P.groups, cin_g = (int)pr.cin_g, cout_g = (int)pr.cout_g, K = (int)P.kernel_size;
    const convt1d_problem pg = one_group(pr);
    const int ty = fwd_kind(pg);
    if (ty < 0) return CONVT1D_ERROR_NOT_SUPPORTED;
    WgArgs a = fwd_args(pg, bias, y);
    fwd_taps(P, a);
    if (a.T > 4096) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t es = ty >= WG_TF32 ? 4 : 2;
    const GroupSteps step = group_steps(pr, es);
    const bool wide = G <= 8 && cin_g >= 32 && cout_g >= 32;
    if (!(rs_env == 1 || (env < 0 && wide && ty != WG_TF32 && rs_pays(ty, pg.p, a, (int64_t)cin_g * a.T))) || !step.aligned())
        return CONVT1D_ERROR_NOT_SUPPORTED;
    a.xn = (int)P.in_channels;
    a.yn = (int)P.out_channels;
    a.view = 1;
    return for_each_group(pr, "wgmma forward", [&](int64_t g) {
        WgArgs ag = a;
        ag.y = static_cast<char *>(y) + g * step.y;
        ag.bias = bias ? static_cast<const char *>(bias) + g * cout_g * es : nullptr;
        return dispatch_rs(ty, pg, static_cast<const char *>(x) + g * step.x, static_cast<const char *>(w) + g * step.w, ag,
                           K, (int)P.dilation, stream);
    });
}
} // namespace

convt1d_status convt1d_fwd_wgmma(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                                 cudaStream_t stream) {
    if (pr.p.groups > 1 && pr.p.batch > 0) return fwd_wgmma_grouped(pr, x, w, bias, y, stream);
    const char *ev = convt1d_env("CONVT1D_WGMMA");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    const int ty = fwd_kind(pr);
    if (env == 0 || ty < 0) return CONVT1D_ERROR_NOT_SUPPORTED;

    const int K = (int)P.kernel_size, d = (int)P.dilation;
    WgArgs a = fwd_args(pr, bias, y);
    fwd_taps(P, a);
    if (a.T > 4096) return CONVT1D_ERROR_NOT_SUPPORTED;
    /* Where it pays (H100, runs 21 and 23, ms vs the mma.sync kernel): the transpose costs one extra pass
     * over x, paid back when each output needs enough multiply-adds, C_in * T >= 512 (hifigan_up2, 512:
     * fp16 1.21 vs 1.51, TF32 1.75 vs 2.44); the memory-bound stride 1/2 shapes lose (KernelBench 74,
     * 160: fp16 3.3 vs 0.80; hifigan_up3, 256: 2.2 vs 1.05). Split TF32 triples the MMA work, so it
     * pays from 384 (KernelBench 64 strict: 8.79 vs 9.75; run 26). */
    const int64_t work = P.in_channels * (int64_t)a.T;
    const char *rv = convt1d_env("CONVT1D_WGMMA_RS");
    const int rs_env = rv && rv[0] ? (rv[0] != '0') : -1;
    if (rs_env == 1 || (rs_env < 0 && env < 0 && rs_pays(ty, P, a, work))) {
        const convt1d_status st = dispatch_rs(ty, pr, x, w, a, K, d, stream);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
    }
    if (env < 0 && work < (ty == WG_TF32X3 ? 384 : 512)) return CONVT1D_ERROR_NOT_SUPPORTED;
    int BR, minb;
    pick_tile(ty, a, work, P.batch, &BR, &minb);
    return dispatch(ty, pr, x, w, a, BR, minb, K, d, P.in_channels, stream, nullptr);
}

/* One-phase layers (dilation d = m*s, s >= 2: KernelBench 79) on the register-A kernel: every tap lands on phase 0 of
 * o = q*s - p, i.e. y[q*s - p] = sum_{ci,k} w[ci,co,k] x[q - k*m] + bias, a stride-1 GEMM over (ci, k) with the taps m
 * apart and its outputs s apart; the staged epilogue writes whole rows, the other phases' columns holding the bias
 * (WgArgs::os). The phase-merged form of convt1d_fwd_wgmma multiplies the empty phases' zero rows instead (run 207:
 * KernelBench 79 TF32 1.09 ms against 0.64 on the phase-fused mma.sync kernel).
 * Taken by default in split TF32 with 4M output elements or more (runs 218-219, KernelBench 79, ms, this / the
 * phase-fused kernel: strict 0.658-0.660 / 0.822-0.827; but TF32 0.664-0.670 / 0.639, bf16 0.435 / 0.335, so those
 * stay there). CONVT1D_WGMMA_RS_OP=1 wherever it can run, 0 never. */
convt1d_status convt1d_fwd_wgmma_one_phase(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                           void *y, cudaStream_t stream) {
    const char *ev = convt1d_env("CONVT1D_WGMMA_RS_OP");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    if (env == 0 || P.stride < 2 || P.dilation % P.stride != 0) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int ty = fwd_kind(pr);
    if (ty < 0) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (env < 0) {
        /* Not where a test or an A/B pins the phase-fused or the scatter path (their switches set). */
        const char *fv = convt1d_env("CONVT1D_FWD_FUSED"), *pv = convt1d_env("CONVT1D_FWD_PHASE");
        if (ty != WG_TF32X3 || P.batch * P.out_channels * pr.out_length < ((int64_t)4 << 20) || (fv && fv[0]) || (pv && pv[0]))
            return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    WgArgs a = fwd_args(pr, bias, y);
    a.ps = 1;
    a.os = (int)P.stride;
    a.T = (int)P.kernel_size;
    a.dj = (int)(P.dilation / P.stride);
    return dispatch_rs(ty, pr, x, w, a, (int)P.kernel_size, (int)P.dilation, stream);
}

/* grad_input of a strided layer as this forward (groups > 1: the register-A kernel per group, below): with k*d = j*s + b,
 *   grad_x[n, ci, l] = sum_{j, co, b} Xt[n][l + j][co*s + b] * w[ci, co, k]
 * (Xt: wgmma_planes_t_kernel), i.e. D[q = l, m = ci] with tap step dj = -1, taps T = (K-1)*d/s + 1
 * and s*C_out input channels; no phase merge (ps = 1), no bias. Unlike the planes of
 * bwd_input_planes.cu, each phase's offset takes the padding, so no tap slot is empty at d = 1. */
convt1d_status convt1d_bwd_input_wgmma(const convt1d_problem &pr, const void *grad_y, const void *w, void *grad_x,
                                       cudaStream_t stream) {
    const char *ev = convt1d_env("CONVT1D_WGMMA");
    const int env = ev && ev[0] ? (ev[0] != '0') : -1;
    const convt1d_params &P = pr.p;
    const int ty = wg_kind(pr.dtype, pr.math);
    if (ty < 0) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (env == 0 || P.batch == 0 || P.stride < 2 || P.stride > 64) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.in_length >= INT_MAX / 4 || pr.out_length >= INT_MAX / 2 || P.batch > 65535 || P.in_channels > 65535 ||
        P.out_channels * P.stride > 65535 || P.kernel_size > 4096 || P.dilation > 65535 || P.padding > INT_MAX / 4)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (convt1d_sm_major() != 9 || !sm90a_built<fwd_wgmma_kernel<WG_BF16, 128, 1>>()) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int s = (int)P.stride, K = (int)P.kernel_size, d = (int)P.dilation, G = (int)P.groups;
    const int cin_g = (int)pr.cin_g, cout_g = (int)pr.cout_g;
    WgArgs a;
    a.xg = 1;
    a.ldm = 0;
    a.rx = 0;
    a.bias = nullptr;
    a.y = grad_x;
    a.cout = cin_g;
    a.yn = (int)P.in_channels;
    a.gn = (int)P.out_channels;
    a.xn = 0;
    a.view = G > 1;
    a.L_out = (int)P.in_length;
    a.p = 0;
    a.ps = 1;
    a.os = 1;
    a.joint = 0;
    a.T = (int)(((int64_t)(K - 1) * d) / s) + 1;
    a.dj = -1;
    if (a.T > 64) return CONVT1D_ERROR_NOT_SUPPORTED;
    const int64_t cp = (int64_t)cout_g * s;
    const int64_t work = cp * a.T; /* multiply-adds per output, as the forward's C_in * T */
    const BwdInput bi_rs = {s, (int)P.padding, cout_g, (int)pr.out_length, (int)P.in_length + a.T - 1};
    const char *rv = convt1d_env("CONVT1D_WGMMA_RS");
    const int rs_env = rv && rv[0] ? (rv[0] != '0') : -1;
    const bool rs_wanted = rs_env == 1 || (rs_env < 0 && env < 0 && rs_bi_pays(ty, P, a, work, bi_bulk(grad_y),
                                                                            plane_unit_bytes(s, ty >= WG_TF32 ? 4 : 2, P.padding, pr.out_length, grad_y) != 0));
    if (G > 1) {
        /* Grouped layers (Session 24): the register-A kernel once per group, on the group's view of grad_y, w and grad_x
         * (their first channel; yn / gn rows per sample). Only where every group's view is aligned as the whole
         * tensors are, so that every launch makes the same choices; a few wide groups (the SS path's planes are made
         * for the whole tensor: it declines them). Run 260: grouped_g4 bf16 grad_input 1.69 ms on the mma.sync kernel,
         * cuDNN 1.00. */
        const GroupSteps step = group_steps(pr, ty >= WG_TF32 ? 4 : 2); /* x: grad_x, y: grad_y */
        const bool wide = G <= 8 && cin_g >= 32 && cout_g >= 32;
        if (!rs_wanted || (rs_env != 1 && !wide) || !step.aligned()) return CONVT1D_ERROR_NOT_SUPPORTED;
        return for_each_group(pr, "wgmma grad_input", [&](int64_t g) {
            WgArgs ag = a;
            ag.y = static_cast<char *>(grad_x) + g * step.x;
            return dispatch_rs(ty, pr, static_cast<const char *>(grad_y) + g * step.y, static_cast<const char *>(w) + g * step.w,
                               ag, K, d, stream, &bi_rs);
        });
    }
    if (rs_wanted) { /* grad_y read in place */
        const convt1d_status st = dispatch_rs(ty, pr, grad_y, w, a, K, d, stream, &bi_rs);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
    }
    if (env < 0 && (work < (ty == WG_TF32X3 ? 384 : 512) || P.in_channels < 64)) return CONVT1D_ERROR_NOT_SUPPORTED;
    const BwdInput bi = {s, (int)P.padding, (int)P.out_channels, (int)pr.out_length, (int)P.in_length + a.T - 1};
    int BR, minb;
    pick_tile(ty, a, work, P.batch, &BR, &minb);
    return dispatch(ty, pr, grad_y, w, a, BR, minb, K, d, cp, stream, &bi);
}
