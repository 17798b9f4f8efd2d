/* Tensor-core forward launcher: picks a tile configuration per shape and launches the polyphase
 * implicit-GEMM kernel of fwd_tc_kernel.cuh. Returns CONVT1D_ERROR_NOT_SUPPORTED (recording nothing)
 * for cases it leaves to the direct kernel: f64, tiny C_in/groups (depthwise-like), pre-sm_80 GPUs,
 * tap spreads wider than the window halo, lengths past int32. */
#include "fwd_tc.cuh"

#include <limits.h>
#include <stdlib.h>

using namespace convt1d_tc;

thread_local int convt1d_tc_last_cfg = -1;

namespace {

struct CfgInfo {
    int bm, bq, kr, tmax, sout, ring_bytes;
};

/* The configurations: id, BM, BQ, warps along M, warps along N, word rows per chunk, tap slots,
 * fp32 ring stages (16-bit always 2), min blocks per SM for tf32 and for 16-bit (strict mode: 1,
 * it needs registers for its per-chunk sums; each chosen so that ptxas spills nothing or next to
 * nothing), staged all-phase output, fragment double-buffering. Ids are stable (the dev harness
 * forces them). The product builds the ones the heuristic uses; the harness (-DCONVT1D_TC_ALL_CONFIGS)
 * also builds the experiments, whose timings docs/design.md records. */
#define CONVT1D_TC_PRODUCT_CONFIGS(X) \
    X(0, 128, 128, 2, 4, 16, 4, 2, 2, 2, false, false) \
    X(1, 64, 256, 2, 4, 16, 6, 2, 2, 2, false, false) \
    X(2, 32, 256, 1, 8, 16, 8, 2, 2, 2, false, false) \
    X(3, 16, 256, 1, 8, 8, 16, 2, 2, 2, false, false) \
    X(4, 64, 128, 2, 2, 8, 8, 3, 3, 3, false, false) \
    X(6, 128, 128, 2, 4, 32, 2, 2, 2, 2, false, false) \
    X(8, 64, 128, 2, 4, 8, 4, 3, 2, 2, true, false) \
    X(9, 32, 128, 1, 8, 8, 4, 3, 2, 2, true, false) \
    X(10, 64, 128, 2, 2, 8, 4, 3, 3, 3, true, false) \
    X(12, 64, 256, 2, 4, 8, 8, 3, 2, 2, false, false) \
    X(34, 16, 256, 1, 8, 32, 4, 2, 1, 1, false, false)

#define CONVT1D_TC_DEV_CONFIGS(X) \
    X(5, 128, 128, 2, 4, 8, 4, 3, 1, 1, false, false) \
    X(7, 128, 64, 4, 2, 32, 2, 2, 2, 2, false, false) \
    X(11, 128, 64, 2, 4, 8, 4, 3, 2, 2, true, false) \
    X(13, 128, 128, 2, 4, 8, 4, 3, 2, 2, false, false) \
    X(14, 128, 128, 2, 4, 16, 4, 2, 1, 1, false, true) \
    X(15, 128, 128, 2, 4, 32, 2, 2, 1, 1, false, true) \
    X(16, 64, 128, 2, 4, 8, 4, 3, 2, 2, true, true) \
    X(17, 64, 256, 2, 4, 8, 8, 3, 1, 1, false, true) \
    X(18, 64, 128, 2, 2, 8, 8, 3, 3, 2, false, true) \
    X(19, 32, 256, 1, 8, 16, 8, 2, 2, 2, false, true) \
    X(20, 128, 128, 2, 4, 8, 4, 3, 1, 1, false, true) \
    X(21, 64, 128, 2, 2, 8, 4, 3, 3, 2, true, true) \
    X(22, 128, 128, 4, 4, 16, 4, 2, 1, 1, false, true) \
    X(23, 128, 128, 4, 4, 32, 2, 2, 1, 1, false, true) \
    X(24, 64, 256, 2, 8, 16, 6, 2, 1, 1, false, true) \
    X(25, 64, 256, 2, 8, 8, 4, 3, 1, 1, true, true) \
    X(26, 128, 256, 4, 4, 8, 4, 3, 1, 1, false, false) \
    X(27, 128, 256, 4, 4, 16, 4, 2, 1, 1, false, false) \
    X(28, 64, 512, 2, 8, 8, 8, 3, 1, 1, false, false) \
    X(29, 128, 256, 4, 4, 32, 2, 2, 1, 1, false, false) \
    X(30, 256, 128, 4, 2, 32, 2, 2, 1, 1, false, false) \
    X(31, 128, 256, 2, 4, 32, 2, 2, 1, 1, false, false) \
    X(32, 256, 128, 4, 2, 16, 4, 2, 1, 1, false, false) \
    X(33, 128, 128, 2, 4, 64, 2, 2, 1, 1, false, false) \
    X(35, 64, 128, 2, 2, 32, 4, 2, 1, 1, true, false)

#ifdef CONVT1D_TC_ALL_CONFIGS
#define CONVT1D_TC_CONFIGS(X) CONVT1D_TC_PRODUCT_CONFIGS(X) CONVT1D_TC_DEV_CONFIGS(X)
#else
#define CONVT1D_TC_CONFIGS(X) CONVT1D_TC_PRODUCT_CONFIGS(X)
#endif

CfgInfo cfg_info(int cfg) {
    switch (cfg) {
#define X(id, bm, bq, wm, wn, kr, tm, st, mb, mb16, so, pf) \
    case id: return CfgInfo{bm, bq, kr, tm, so, ring_words<bm, bq, kr, tm, st>() * 4};
        CONVT1D_TC_CONFIGS(X)
#undef X
    }
    return CfgInfo{0, 0, 0, 0, 0, 0};
}

/* Shared memory a block of cfg needs for this problem (the staged output tile grows with s). */
int64_t cfg_smem(const CfgInfo &ci, int s, bool half) {
    (void)half; /* ring_bytes is for the fp32 ring depth, never less than 16-bit's 2 stages */
    const int64_t ring = ci.ring_bytes;
    return ring + (ci.sout ? (int64_t)ci.bm * (ci.bq * (int64_t)s + 4) * 4 : 0);
}

/* Word rows per chunk: 16-bit words hold two channels, so 16-bit modes halve KR (same channels). */
constexpr int kr_eff(int kr, bool half) { return half && kr > 8 ? kr / 2 : kr; }

template <int MODE, int BM, int BQ, int WM, int WN, int KR0, int TMAX, int ST, int MINB, int MINB16, bool SOUT, bool PF>
cudaError_t launch_one(const Args &a, const void *w, unsigned grid, cudaStream_t stream) {
    constexpr int KR = kr_eff(KR0, MODE >= F16);
    constexpr int STAGES = MODE >= F16 ? 2 : ST;
    constexpr int MB = MODE == F32X3 ? 1 : MODE >= F16 ? MINB16 : MINB;
    auto kern = fwd_tc_kernel<MODE, BM, BQ, WM, WN, KR, TMAX, STAGES, MB, SOUT, PF>;
    const int smem = ring_words<BM, BQ, KR, TMAX, STAGES>() * 4 + (SOUT ? BM * (BQ * a.s + 4) * 4 : 0);
    /* The dynamic shared-memory limit is per function and per device: set once per (instantiation,
     * device, size) - a driver call per launch costs microseconds that latency-bound calls notice. */
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    static thread_local int smem_set[64]; /* per device: the largest size already set (0: none) */
    if (dev >= 64 || smem_set[dev] < smem) {
        e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
        if (e != cudaSuccess) return e;
        if (dev < 64) smem_set[dev] = smem;
    }
    if (a.wraw) { /* blocks read w themselves: one launch, no scratch */
        Args b = a;
        b.w_raw = w;
        kern<<<grid, WM * WN * 32, smem, stream>>>(b);
        return cudaGetLastError();
    }
    const int64_t words = (int64_t)a.G * a.s * a.co_tiles * a.nch * a.tmax * KR * BM;
    /* Stream-ordered scratch for the packed weights: no host sync, freed once the kernel is done. */
    void *wp = nullptr;
    e = cudaMallocAsync(&wp, (size_t)words * 4, stream);
    if (e != cudaSuccess) return e;
    Args b = a;
    b.wp = (const uint32_t *)wp;
    pack_weights_kernel<MODE, BM, KR><<<(unsigned)((words + 255) / 256), 256, 0, stream>>>(w, b, words);
    kern<<<grid, WM * WN * 32, smem, stream>>>(b);
    e = cudaGetLastError();
    cudaError_t f = cudaFreeAsync(wp, stream);
    return e != cudaSuccess ? e : f;
}

template <int MODE>
cudaError_t launch_mode(int cfg, const Args &a, const void *w, unsigned grid, cudaStream_t stream) {
    switch (cfg) {
#define X(id, bm, bq, wm, wn, kr, tm, st, mb, mb16, so, pf) \
    case id: return launch_one<MODE, bm, bq, wm, wn, kr, tm, st, mb, mb16, so, pf>(a, w, grid, stream);
        CONVT1D_TC_CONFIGS(X)
#undef X
    }
    return cudaErrorInvalidValue;
}


/* Heuristic, from the per-configuration timings in docs/design.md (H100, every suite shape):
 *  - strides 2..4 where some phase gets no tap (KernelBench 79): staged all-phase output;
 *  - wide C_out/groups: 128 x 128 tiles, chunk depth by tap count;
 *  - C_out/groups 33..64: 64 x 256 tiles (4 warps x 128 for strict, which needs registers);
 *  - narrower: 32- and 16-row tiles (fp32 with strides 2..4: the staged 32-row tile).
 * Phase-merged problems arrive here as stride 1 with C_out/groups * s rows. */
/* Tiny problems are latency-bound (launches, scratch allocation and host time dominate). */
bool tiny_problem(const Args &a) {
    const double macs = (double)a.N * a.L_in * a.cin_g * a.ocg * a.G * (double)a.pK;
    return macs < (double)(1 << 25);
}

int pick_cfg(const Args &a, bool strict, bool half) {
    /* Tiny problems: few, deep chunks (16 x 256 tile, 32 word rows) beat every other tile there
     * (H100, ms: kernelbench_79_small tf32 0.0164 vs 0.0215, strict 0.018 vs 0.027). */
    if (tiny_problem(a) && a.tmax <= 4) return 34;
    const int gc = a.s / a.sg_k; /* gcd(s, d) */
    const bool empty_phase = a.s > 1 && (gc > 1 || a.K < a.sg_k);
    if (a.s >= 2 && a.s <= 4 && empty_phase) return a.cout_g > 32 ? (strict ? 10 : 8) : 9;
    if (a.cout_g > 64) return a.tmax <= 2 ? 6 : a.tmax <= 4 ? 0 : 12;
    if (a.cout_g > 32) {
        if (strict) return 4;
        if (a.s >= 2 && a.s <= 4 && a.cin_g <= 64) return half ? 8 : 4;
        return 12;
    }
    if (a.cout_g > 16) return !half && a.s >= 2 && a.s <= 4 ? 9 : 2;
    return 3;
}

/* A dev/A-B switch from the environment, read once per process: -1 unset, else 0 or 1. */
int env_flag(const char *name) {
    const char *v = convt1d_env(name);
    return v && v[0] ? v[0] != '0' : -1;
}

/* Phase merging. Every phase of a stride-s problem reads input q - j with j = floor(k*d / s) in
 * [0, P], P = floor((K-1)*d / s). So the s phases are one stride-1 GEMM with C_out*s rows (co, r) and
 * P + 1 taps, row (co, r) holding at tap j the weight k with k*d = j*s + r (zero if none). The rows of
 * one fragment are then consecutive outputs: the stores are coalesced instead of s apart, and the
 * GEMM gets s times the rows. It pays when few taps are zero: s*(P+1) multiply slots for K weights
 * (exactly K for the usual K = m*s, d = 1 vocoder layers; 2K for KernelBench 79, whose empty phase the
 * staged-output tiles handle instead). CONVT1D_TC_MERGE=0/1 (read once) forces it off/on, for A/B timing. */
int merged_taps(const Args &a) { return (int)(((int64_t)(a.K - 1) * a.d) / a.s) + 1; }

bool merge_phases(const Args &a) {
    if (a.s < 2) return false;
    const int64_t slots = (int64_t)a.s * merged_taps(a);
    if (merged_taps(a) - 1 > HALO_MAX || (int64_t)a.cout_g * a.s > INT_MAX / 4) return false;
    static const int forced = env_flag("CONVT1D_TC_MERGE");
    if (forced >= 0) return forced != 0;
    return slots * 4 <= (int64_t)a.K * 5; /* at most 25% zero slots */
}

/* Blocks a configuration launches for this problem (the launcher's grid formula). */
int64_t cfg_grid(const Args &a, const CfgInfo &ci) {
    const int64_t q0 = a.pp / (a.ps > 1 ? a.ps : a.s);
    const int64_t lq = ((int64_t)a.pp + a.L_out - 1) / (a.ps > 1 ? a.ps : a.s) - q0 + 1;
    const int64_t q_tiles = (lq + ci.bq - 1) / ci.bq, co_tiles = (a.cout_g + ci.bm - 1) / ci.bm;
    return co_tiles * (ci.sout ? 1 : a.s) * q_tiles * a.N * a.G;
}

/* An attribute of the current device, read once into cache (the device current at the first successful call); -1
 * if it cannot be read (the next call tries again). */
int cached_device_attr(int &cache, cudaDeviceAttr attr) {
    if (cache < 0) {
        int dev = 0, v = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&v, attr, dev) != cudaSuccess) return -1;
        cache = v;
    }
    return cache;
}

}  // namespace

int convt1d_sm_count() {
    static int count = -1;
    if (cached_device_attr(count, cudaDevAttrMultiProcessorCount) < 0) return 0;
    /* CONVT1D_SM_LIMIT=n (read at every call; probes only): size grids and heuristics for n SMs, so that two
     * kernels on two streams can share the GPU (dev/python/concurrent_bwd_probe.py). */
    const char *v = convt1d_env("CONVT1D_SM_LIMIT");
    if (v && v[0]) {
        const int l = atoi(v);
        if (l > 0 && l < count) return l;
    }
    return count;
}

int convt1d_sm_major() {
    static int major = -1; /* one GPU generation per process is the common case */
    const int v = cached_device_attr(major, cudaDevAttrComputeCapabilityMajor);
    return v < 0 ? 0 : v;
}

int convt1d_gcd(int a, int b) {
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Peak DRAM bandwidth of the current device in GB/s: memory clock (kHz) x bus width (bits) x 2 (double data rate),
 * cached for the process; 0 if it cannot be read. H100 SXM 3352, H200 4915, A100 80 GB 2039. */
int convt1d_dram_gbps() {
    static int khz = -1, bits = -1;
    if (cached_device_attr(khz, cudaDevAttrMemoryClockRate) < 0 ||
        cached_device_attr(bits, cudaDevAttrGlobalMemoryBusWidth) < 0)
        return 0;
    return (int)((int64_t)khz * bits * 2 / 8 / 1000000);
}

/* L2 size of the current device in bytes, cached for the process; 0 if it cannot be read. H100 / H200: 50 MB. */
int64_t convt1d_l2_bytes() {
    static int bytes = -1;
    const int v = cached_device_attr(bytes, cudaDevAttrL2CacheSize);
    return v < 0 ? 0 : v;
}

bool convt1d_dram_rich() {
    const int forced = env_flag("CONVT1D_DRAM_RICH");
    return forced >= 0 ? forced != 0 : convt1d_dram_gbps() >= 4500;
}

size_t convt1d_smem_optin() {
    static int optin = -1;
    const int v = cached_device_attr(optin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
    return v < 0 ? 48 * 1024 : (size_t)v;
}

convt1d_status convt1d_fwd_tc_cfg(const convt1d_problem &pr, const void *x, const void *w, const void *bias,
                                  void *y, cudaStream_t stream, int cfg) {
    const convt1d_params &P = pr.p;
    if (pr.dtype == CONVT1D_F64) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (pr.cin_g < CONVT1D_TC_MIN_CIN_G) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (P.batch == 0) return CONVT1D_SUCCESS;
    const int64_t lim = INT_MAX / 2;
    if (P.in_length > lim || pr.out_length > lim || P.in_channels > lim || P.out_channels > lim ||
        P.kernel_size > lim || P.stride > 4096 || P.padding > lim || P.dilation > lim || P.batch > lim)
        return CONVT1D_ERROR_NOT_SUPPORTED;
    if (convt1d_sm_major() < 8) return CONVT1D_ERROR_NOT_SUPPORTED;

    Args a;
    a.x = x;
    a.wp = nullptr;
    a.bias = bias;
    a.y = y;
    a.N = (int)P.batch;
    a.cin = (int)P.in_channels;
    a.cout = (int)P.out_channels;
    a.cin_g = (int)pr.cin_g;
    a.cout_g = (int)pr.cout_g;
    a.G = (int)P.groups;
    a.L_in = (int)P.in_length;
    a.L_out = (int)pr.out_length;
    a.K = (int)P.kernel_size;
    a.s = (int)P.stride;
    a.p = (int)P.padding;
    a.d = (int)P.dilation;
    const int gc = convt1d_gcd(a.s, a.d);
    a.sg_k = a.s / gc;
    a.sg_off = a.d / gc;
    a.tmax = (a.K - 1) / a.sg_k + 1; /* phase 0 always has the most taps */
    a.ps = 1;
    a.pd = a.d;
    a.pK = a.K;
    a.pp = a.p;
    a.ocg = a.cout_g;
    a.w_adj = pr.w_adjoint ? 1 : 0;
    a.w_raw = nullptr;
    {
        /* 16-byte input staging needs every row start 16-byte aligned. CONVT1D_TC_XVEC=0: off (A/B). */
        static const int forced = env_flag("CONVT1D_TC_XVEC");
        const int ve = pr.dtype == CONVT1D_F32 ? 4 : 8;
        a.xvec = a.L_in % ve == 0 && ((uintptr_t)x & 15) == 0 && forced != 0;
    }
    if (merge_phases(a) && !(cfg >= 0 && cfg_info(cfg).sout)) { /* staged-output tiles keep the phases */
        /* Stride-s problem as a stride-1 one whose GEMM rows are the (co, r) pairs. */
        a.ps = a.s;
        a.cout_g = a.ocg * a.s;
        a.tmax = a.K = merged_taps(a);
        a.s = a.d = a.sg_k = a.sg_off = 1;
    }
    if ((int64_t)(a.tmax - 1) * a.sg_off > HALO_MAX) return CONVT1D_ERROR_NOT_SUPPORTED;
    {
        /* Tiny problems build the weight words in the main kernel (no pack launch, no scratch): the
         * per-block gather costs nothing there. CONVT1D_TC_WRAW=0/1 (read once): off/always, for A/B. */
        static const int forced = env_flag("CONVT1D_TC_WRAW");
        a.wraw = forced >= 0 ? forced : tiny_problem(a) ? 1 : 0;
    }

    const bool half = pr.dtype != CONVT1D_F32;
    if (cfg < 0) {
        /* The heuristic's pick, else the first fallback whose tap slots and shared memory fit. */
        const int tries[5] = {pick_cfg(a, pr.dtype == CONVT1D_F32 && pr.math == CONVT1D_MATH_STRICT_FP32, half), 1,
                              12, 2, 3};
        for (int t : tries) { /* tap slots or shared memory may rule the first choice out */
            const CfgInfo c = cfg_info(t);
            if (a.tmax <= c.tmax && cfg_smem(c, a.s, half) <= 227 * 1024) {
                cfg = t;
                break;
            }
        }
        if (cfg < 0) return CONVT1D_ERROR_NOT_SUPPORTED;
        /* Small batches of wide layers can leave most SMs idle: the grad_input of one utterance
         * (single_utterance_x8, through phase planes) gets 28 blocks of 128 x 128 on 132 SMs. Below
         * half an SM's worth of blocks, narrower tiles fill the GPU, each block doing the same reduction
         * over fewer rows (and re-reading the input window from L2 more often): the first of the 64-,
         * 32-, 16-row tiles that reaches one block per SM, else the one with the most blocks. Measured
         * (H100, ms, on vs off): that grad_input 0.315 vs 0.379 TF32, 0.384 vs 0.635 strict, 0.172 vs
         * 0.254 bf16; but the same rule at 112 blocks (the layer's forward) lost: 0.098 vs 0.084 TF32,
         * hence the half-GPU trigger. Not for staged-output tiles (their phase handling differs) nor
         * tiny problems. CONVT1D_TC_FILL=0 (read once) keeps the first pick, for A/B timing. */
        static const int fill = env_flag("CONVT1D_TC_FILL");
        const int slots = convt1d_sm_count();
        if (fill != 0 && !tiny_problem(a) && !cfg_info(cfg).sout && slots > 0 &&
            2 * cfg_grid(a, cfg_info(cfg)) < slots) {
            int best = cfg;
            int64_t best_grid = cfg_grid(a, cfg_info(cfg));
            for (int t : {12, 2, 3}) {
                const CfgInfo c = cfg_info(t);
                if (c.bm >= cfg_info(cfg).bm || a.tmax > c.tmax || cfg_smem(c, a.s, half) > 227 * 1024) continue;
                const int64_t gt = cfg_grid(a, c);
                if (gt > best_grid) {
                    best = t;
                    best_grid = gt;
                }
                if (gt >= slots) break;
            }
            cfg = best;
        }
    }
    const CfgInfo ci = cfg_info(cfg);
    if (ci.bm == 0 || a.tmax > ci.tmax) return CONVT1D_ERROR_NOT_SUPPORTED;
    convt1d_tc_last_cfg = cfg;

    /* Output o = q*s + r - p: every phase's q lies in [p/s, (p + L_out - 1)/s] (real s and p). */
    a.q_min = a.pp / (a.ps > 1 ? a.ps : a.s);
    const int64_t q_max = ((int64_t)a.pp + a.L_out - 1) / (a.ps > 1 ? a.ps : a.s);
    const int64_t lq = q_max - a.q_min + 1;
    a.q_tiles = (int)((lq + ci.bq - 1) / ci.bq);
    a.co_tiles = (a.cout_g + ci.bm - 1) / ci.bm;
    const int cpc = half ? 2 * kr_eff(ci.kr, true) : ci.kr;
    a.nch = (a.cin_g + cpc - 1) / cpc;
    const int64_t grid = (int64_t)a.co_tiles * (ci.sout ? 1 : a.s) * a.q_tiles * a.N * a.G;
    if (grid > INT_MAX) return CONVT1D_ERROR_NOT_SUPPORTED;
    if (cfg_smem(ci, a.s, half) > 227 * 1024) return CONVT1D_ERROR_NOT_SUPPORTED;
    /* Packed weights: about the weight tensor's size, padded; refuse absurd ones (huge strides). */
    const int64_t packed = (int64_t)a.G * a.s * a.co_tiles * a.nch * a.tmax * ci.kr * ci.bm * 4;
    if (packed > ((int64_t)1 << 30)) return CONVT1D_ERROR_NOT_SUPPORTED;

    cudaError_t e;
    switch (pr.dtype) {
    case CONVT1D_F32:
        e = pr.math == CONVT1D_MATH_STRICT_FP32 ? launch_mode<F32X3>(cfg, a, w, (unsigned)grid, stream)
                                                : launch_mode<TF32>(cfg, a, w, (unsigned)grid, stream);
        break;
    case CONVT1D_F16: e = launch_mode<F16>(cfg, a, w, (unsigned)grid, stream); break;
    case CONVT1D_BF16: e = launch_mode<BF16>(cfg, a, w, (unsigned)grid, stream); break;
    default: return CONVT1D_ERROR_NOT_SUPPORTED;
    }
    if (e != cudaSuccess)
        return convt1d_fail(CONVT1D_ERROR_CUDA, "tensor-core forward launch failed: %s", cudaGetErrorString(e));
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_fwd_tc(const convt1d_problem &pr, const void *x, const void *w, const void *bias, void *y,
                              cudaStream_t stream) {
    /* fp16/bf16 on Hopper: the wgmma/TMA kernel (fwd_wgmma.cu) when it takes the shape. Not for tiny
     * problems: its weight pack and tensor-map encoding are host and launch time they cannot hide. */
    if (layer_macs(pr.p) >= (double)(1 << 25)) {
        const convt1d_status st = convt1d_fwd_wgmma(pr, x, w, bias, y, stream);
        if (st != CONVT1D_ERROR_NOT_SUPPORTED) return st;
    }
    return convt1d_fwd_tc_cfg(pr, x, w, bias, y, stream, -1);
}
