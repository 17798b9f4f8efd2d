/* Dev harness for the tensor-core forward (src/cuda/fwd_tc*.cu*), in the spirit of llm.c's dev/cuda:
 * every tile configuration of the product launcher, checked against a float64 CPU reference and
 * timed with CUDA events, in one program.
 *
 *   nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a -Iinclude -Isrc/core -Isrc/cuda \
 *        dev/cuda/fwd_tc_dev.cu src/cuda/fwd_tc.cu src/core/params.c -o fwd_tc_dev
 *   ./fwd_tc_dev [check|bench|all]
 *
 * Inputs are a counter-based hash of (seed, index), drawn on the GPU; the reference recomputes the
 * few values it needs on the host from the same hash, so no multi-GB host copies are needed. Each
 * trial uses a fresh seed. Outputs are poisoned with NaN (0xFF bytes) first; a device pass counts
 * non-finite outputs (unwritten elements), and a sample of outputs (random plus corners) is compared
 * with a float64 sum over the definition (no polyphase shortcuts) by relative L2 error.
 * Lines starting with RES, are machine-readable: RES,shape,mode,cfg,ms,relerr,nonfinite,verdict. */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "fwd_tc.cuh"

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, \
                    __LINE__, #x);                                                              \
            exit(2);                                                                            \
        }                                                                                       \
    } while (0)

__host__ __device__ inline uint32_t hash32(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return (uint32_t)x;
}
/* Uniform on [-1, 1), exact in float (24-bit integer times a power of two). */
__host__ __device__ inline float urand(uint64_t seed, uint64_t i) {
    return (float)(hash32(seed * 0x9E3779B97F4A7C15ULL + i) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}
template <int DT> __host__ __device__ inline void put(void *p, int64_t i, float v) {
    if (DT == CONVT1D_F16) ((__half *)p)[i] = __float2half_rn(v);
    else if (DT == CONVT1D_BF16) ((__nv_bfloat16 *)p)[i] = __float2bfloat16_rn(v);
    else ((float *)p)[i] = v;
}
/* The value element i of a tensor filled by fill_kernel holds, as a double. */
static double host_val(int dt, uint64_t seed, int64_t i) {
    float v = urand(seed, (uint64_t)i);
    if (dt == CONVT1D_F16) return (double)__half2float(__float2half_rn(v));
    if (dt == CONVT1D_BF16) return (double)__bfloat162float(__float2bfloat16_rn(v));
    return (double)v;
}
template <int DT> __global__ void fill_kernel(void *p, int64_t n, uint64_t seed) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        put<DT>(p, i, urand(seed, (uint64_t)i));
}
static void fill(int dt, void *p, int64_t n, uint64_t seed) {
    if (dt == CONVT1D_F16) fill_kernel<CONVT1D_F16><<<4096, 256>>>(p, n, seed);
    else if (dt == CONVT1D_BF16) fill_kernel<CONVT1D_BF16><<<4096, 256>>>(p, n, seed);
    else fill_kernel<CONVT1D_F32><<<4096, 256>>>(p, n, seed);
    CK(cudaGetLastError());
}
/* Counts non-finite outputs (NaN poison left unwritten, or overflow) by their exponent bits. */
__global__ void nonfinite_kernel(const uint32_t *p, int64_t n, unsigned long long *cnt) {
    unsigned long long c = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        c += ((p[i] & 0x7F800000u) == 0x7F800000u);
    atomicAdd(cnt, c);
}
__global__ void nonfinite16_kernel(const uint16_t *p, int64_t n, uint16_t mask, unsigned long long *cnt) {
    unsigned long long c = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        c += ((p[i] & mask) == mask);
    atomicAdd(cnt, c);
}
__global__ void gather_kernel(const void *y, int dt, const int64_t *idx, int n, double *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t k = idx[i];
    double v;
    if (dt == CONVT1D_F16) v = __half2float(((const __half *)y)[k]);
    else if (dt == CONVT1D_BF16) v = __bfloat162float(((const __nv_bfloat16 *)y)[k]);
    else v = ((const float *)y)[k];
    out[i] = v;
}

struct Shape {
    std::string name;
    int64_t N, Cin, Cout, K, L, s, p, op, G, d;
    bool bias;
    bool bench;     /* time it */
    int y_offset;   /* elements: tests unaligned output pointers */
    int only_mode;  /* -1: all modes */
};

static const char *mode_name[4] = {"tf32", "strict", "f16", "bf16"};

struct Tensors {
    void *x = nullptr, *w = nullptr, *b = nullptr, *y = nullptr;
    size_t xb = 0, wb = 0, bb = 0, yb = 0;
};
static void ensure(void *&p, size_t &have, size_t need) {
    if (need <= have) return;
    if (p) CK(cudaFree(p));
    CK(cudaMalloc(&p, need));
    have = need;
}

static double tol(int mode) { return mode == 0 ? 2e-3 : mode == 1 ? 1e-5 : mode == 2 ? 2e-3 : 1e-2; }

static int g_fail = 0;

/* One (shape, mode, cfg) trial: fresh inputs, poisoned output, run, check, optionally time. */
static void trial(const Shape &sh, int mode, int cfg, Tensors &t, bool timeit, uint64_t seed) {
    convt1d_params P = convt1d_params_make(sh.N, sh.Cin, sh.Cout, sh.L, sh.K);
    P.stride = sh.s;
    P.padding = sh.p;
    P.output_padding = sh.op;
    P.groups = sh.G;
    P.dilation = sh.d;
    int64_t Lout = 0;
    if (convt1d_validate(&P, &Lout) != CONVT1D_SUCCESS) {
        printf("bad shape %s: %s\n", sh.name.c_str(), convt1d_last_error());
        g_fail++;
        return;
    }
    convt1d_problem pr;
    pr.p = P;
    pr.out_length = Lout;
    pr.cin_g = sh.Cin / sh.G;
    pr.cout_g = sh.Cout / sh.G;
    pr.dtype = mode == 0 || mode == 1 ? CONVT1D_F32 : mode == 2 ? CONVT1D_F16 : CONVT1D_BF16;
    pr.math = mode == 1 ? CONVT1D_MATH_STRICT_FP32 : CONVT1D_MATH_ALLOW_TF32;
    const int dt = pr.dtype;
    const size_t es = convt1d_dtype_size(pr.dtype);
    const int64_t xn = sh.N * sh.Cin * sh.L, wn = sh.Cin * (sh.Cout / sh.G) * sh.K, yn = sh.N * sh.Cout * Lout;
    ensure(t.x, t.xb, xn * es);
    ensure(t.w, t.wb, wn * es);
    ensure(t.b, t.bb, sh.Cout * es);
    ensure(t.y, t.yb, (yn + sh.y_offset) * es);
    const uint64_t sx = seed * 4 + 1, sw = seed * 4 + 2, sb = seed * 4 + 3;
    fill(dt, t.x, xn, sx);
    fill(dt, t.w, wn, sw);
    fill(dt, t.b, sh.Cout, sb);
    void *y = (char *)t.y + sh.y_offset * es;
    CK(cudaMemset(t.y, 0xFF, (yn + sh.y_offset) * es));
    CK(cudaDeviceSynchronize());

    convt1d_status st = convt1d_fwd_tc_cfg(pr, t.x, t.w, sh.bias ? t.b : nullptr, y, 0, cfg);
    char cfgs[16];
    if (cfg < 0) snprintf(cfgs, sizeof cfgs, "auto");
    else snprintf(cfgs, sizeof cfgs, "c%d", cfg);
    if (cfg < 0 && st == CONVT1D_SUCCESS) printf("AUTO,%s,%s,c%d\n", sh.name.c_str(), mode_name[mode], convt1d_tc_last_cfg);
    if (st == CONVT1D_ERROR_NOT_SUPPORTED) {
        printf("RES,%s,%s,%s,,,,NS\n", sh.name.c_str(), mode_name[mode], cfgs);
        return;
    }
    if (st != CONVT1D_SUCCESS) {
        printf("RES,%s,%s,%s,,,,ERR(%s)\n", sh.name.c_str(), mode_name[mode], cfgs, convt1d_last_error());
        g_fail++;
        return;
    }
    CK(cudaDeviceSynchronize());

    /* Non-finite count over the whole output. */
    unsigned long long *dcnt;
    CK(cudaMalloc(&dcnt, sizeof *dcnt));
    CK(cudaMemset(dcnt, 0, sizeof *dcnt));
    if (es == 4) nonfinite_kernel<<<2048, 256>>>((const uint32_t *)y, yn, dcnt);
    else nonfinite16_kernel<<<2048, 256>>>((const uint16_t *)y, yn, dt == CONVT1D_F16 ? 0x7C00 : 0x7F80, dcnt);
    CK(cudaGetLastError());
    unsigned long long nonfin = 0;
    CK(cudaMemcpy(&nonfin, dcnt, sizeof nonfin, cudaMemcpyDeviceToHost));
    CK(cudaFree(dcnt));

    /* Sampled float64 reference straight from the definition. */
    const int64_t cin_g = pr.cin_g, cout_g = pr.cout_g;
    std::vector<int64_t> idx;
    uint64_t rs = seed * 7919 + 17;
    auto rnd = [&](int64_t m) { rs = rs * 6364136223846793005ULL + 1442695040888963407ULL; return (int64_t)((rs >> 17) % (uint64_t)m); };
    const int64_t corners_o[4] = {0, 1, Lout - 2, Lout - 1};
    const int64_t corners_c[2] = {0, sh.Cout - 1};
    const int64_t corners_n[2] = {0, sh.N - 1};
    for (int a = 0; a < 2; ++a)
        for (int b2 = 0; b2 < 2; ++b2)
            for (int c = 0; c < 4; ++c)
                if (corners_o[c] >= 0) idx.push_back((corners_n[a] * sh.Cout + corners_c[b2]) * Lout + corners_o[c]);
    const int64_t budget = 3000000; /* MACs on the host */
    int64_t per = cin_g * sh.K;
    int64_t ns = std::min<int64_t>(std::min<int64_t>(yn, 3000), std::max<int64_t>(200, budget / std::max<int64_t>(per, 1)));
    for (int64_t i = 0; i < ns; ++i) idx.push_back(rnd(yn));
    if (yn <= 6000) { idx.clear(); for (int64_t i = 0; i < yn; ++i) idx.push_back(i); }
    int64_t *didx;
    double *dout;
    CK(cudaMalloc(&didx, idx.size() * sizeof(int64_t)));
    CK(cudaMalloc(&dout, idx.size() * sizeof(double)));
    CK(cudaMemcpy(didx, idx.data(), idx.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
    gather_kernel<<<(unsigned)((idx.size() + 255) / 256), 256>>>(y, dt, didx, (int)idx.size(), dout);
    CK(cudaGetLastError());
    std::vector<double> got(idx.size());
    CK(cudaMemcpy(got.data(), dout, idx.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaFree(didx));
    CK(cudaFree(dout));
    double num = 0, den = 0;
    bool nan_sample = false;
    for (size_t s = 0; s < idx.size(); ++s) {
        const int64_t e = idx[s];
        const int64_t o = e % Lout, co = (e / Lout) % sh.Cout, n = e / Lout / sh.Cout;
        const int64_t g = co / cout_g, cl = co % cout_g;
        double ref = sh.bias ? host_val(dt, sb, co) : 0.0;
        for (int64_t k = 0; k < sh.K; ++k) {
            const int64_t tt = o + sh.p - k * sh.d;
            if (tt < 0 || tt % sh.s) continue;
            const int64_t i = tt / sh.s;
            if (i >= sh.L) continue;
            for (int64_t ci = 0; ci < cin_g; ++ci) {
                const int64_t cig = g * cin_g + ci;
                ref += host_val(dt, sx, (n * sh.Cin + cig) * sh.L + i) * host_val(dt, sw, (cig * cout_g + cl) * sh.K + k);
            }
        }
        if (!std::isfinite(got[s])) nan_sample = true;
        num += (got[s] - ref) * (got[s] - ref);
        den += ref * ref;
    }
    const double rel = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
    const bool ok = !nan_sample && nonfin == 0 && rel <= tol(mode);
    if (!ok) g_fail++;

    double ms = 0;
    if (timeit && ok) {
        const int warm = 3, reps = 15;
        cudaEvent_t ev[reps + 1];
        for (auto &e : ev) CK(cudaEventCreate(&e));
        for (int i = 0; i < warm; ++i) convt1d_fwd_tc_cfg(pr, t.x, t.w, sh.bias ? t.b : nullptr, y, 0, cfg);
        std::vector<float> v;
        for (int i = 0; i < reps; ++i) {
            CK(cudaEventRecord(ev[0]));
            convt1d_fwd_tc_cfg(pr, t.x, t.w, sh.bias ? t.b : nullptr, y, 0, cfg);
            CK(cudaEventRecord(ev[1]));
            CK(cudaEventSynchronize(ev[1]));
            float m;
            CK(cudaEventElapsedTime(&m, ev[0], ev[1]));
            v.push_back(m);
        }
        CK(cudaGetLastError());
        std::sort(v.begin(), v.end());
        ms = v[v.size() / 2];
        for (auto &e : ev) CK(cudaEventDestroy(e));
    }
    printf("RES,%s,%s,%s,%.4f,%.3e,%llu,%s\n", sh.name.c_str(), mode_name[mode], cfgs, ms, rel, nonfin,
           ok ? "PASS" : "FAIL");
    fflush(stdout);
}

int main(int argc, char **argv) {
    const std::string what = argc > 1 ? argv[1] : "all";
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    if (what == "probe") return 0;
    printf("device: %s, %d SMs, cc %d.%d, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor,
           prop.l2CacheSize >> 20);
    /* name, N, Cin, Cout, K, L, s, p, op, G, d, bias, bench, y_offset, only_mode */
    std::vector<Shape> check = {
        {"pointwise", 2, 8, 8, 1, 9, 1, 0, 0, 1, 1, true, false, 0, -1},
        {"gaps_s5", 2, 12, 20, 2, 37, 5, 0, 0, 1, 1, false, false, 0, -1},
        {"outpad_dil", 3, 16, 24, 3, 11, 3, 1, 2, 1, 2, true, false, 0, -1},
        {"outpad_lt_dil", 2, 9, 10, 3, 50, 1, 0, 2, 1, 3, false, false, 0, -1},
        {"pad_eats", 2, 10, 6, 5, 6, 2, 7, 0, 1, 2, false, false, 0, -1},
        {"groups3", 2, 48, 72, 3, 100, 2, 1, 0, 3, 1, true, false, 0, -1},
        {"len1", 3, 40, 36, 4, 1, 2, 0, 0, 1, 1, false, false, 0, -1},
        {"long_k31", 2, 24, 40, 31, 40, 4, 13, 0, 1, 1, true, false, 0, -1},
        {"dil17", 1, 16, 24, 3, 50, 2, 3, 0, 1, 17, false, false, 0, -1},
        {"odd_unaligned_y", 2, 130, 129, 3, 1000, 1, 0, 0, 1, 1, true, false, 1, -1},
        {"g2_mixed", 2, 200, 300, 7, 333, 3, 2, 1, 2, 2, true, false, 0, -1},
        {"halo32", 1, 64, 64, 5, 4099, 1, 0, 0, 1, 8, false, false, 0, -1},
        {"voc_small", 2, 8, 16, 16, 300, 8, 4, 0, 1, 1, true, false, 0, -1},
        {"s5_k10", 2, 17, 33, 10, 257, 5, 3, 1, 1, 1, true, false, 0, -1},
        {"kb79_short", 3, 32, 64, 3, 1000, 2, 1, 0, 1, 2, false, false, 0, -1},
        {"g4_small", 2, 32, 48, 3, 500, 1, 0, 0, 4, 1, false, false, 0, -1},
        {"k5_c200", 2, 24, 200, 5, 700, 1, 2, 0, 1, 1, true, false, 0, -1},
        {"sout_s3_unaligned", 2, 24, 40, 5, 301, 3, 2, 1, 1, 1, true, false, 1, -1},
        {"sout_s4_g2", 3, 32, 48, 8, 129, 4, 3, 0, 2, 1, true, false, 0, -1},
        {"sout_s2_d3", 2, 64, 130, 4, 777, 2, 5, 1, 1, 3, true, false, 0, -1},
        {"halo40_ns", 1, 16, 16, 3, 100, 1, 0, 0, 1, 40, false, false, 0, -1},
        {"cin_g4_ns", 1, 16, 16, 3, 100, 1, 0, 0, 4, 1, false, false, 0, -1},
        {"big_idx64", 4, 16, 512, 2, 1100000, 1, 0, 0, 1, 1, false, false, 0, 3},
    };
    std::vector<Shape> bench = {
        {"kernelbench_64", 64, 128, 128, 3, 65536, 1, 0, 0, 1, 1, false, true, 0, -1},
        {"kernelbench_74", 32, 32, 64, 5, 131072, 1, 0, 0, 1, 3, false, true, 0, -1},
        {"kernelbench_79", 16, 32, 64, 3, 131072, 2, 1, 0, 1, 2, false, true, 0, -1},
        {"kernelbench_64_small", 16, 64, 3, 3, 128, 1, 0, 0, 1, 1, false, true, 0, -1},
        {"kernelbench_79_small", 16, 32, 64, 3, 128, 2, 1, 0, 1, 2, false, true, 0, -1},
        {"upsample_x8_bias", 16, 512, 256, 16, 8192, 8, 4, 0, 1, 1, true, true, 0, -1},
        {"grouped_g4", 32, 256, 256, 4, 16384, 2, 1, 0, 4, 1, true, true, 0, -1},
        {"hifigan_up1", 16, 512, 256, 16, 2048, 8, 4, 0, 1, 1, true, true, 0, -1},
        {"hifigan_up2", 16, 256, 128, 16, 16384, 8, 4, 0, 1, 1, true, true, 0, -1},
        {"hifigan_up3", 16, 128, 64, 4, 131072, 2, 1, 0, 1, 1, true, true, 0, -1},
        {"hifigan_up4", 16, 64, 32, 4, 262144, 2, 1, 0, 1, 1, true, true, 0, -1},
        {"codec_dec_s8", 8, 1536, 768, 16, 1024, 8, 4, 0, 1, 1, true, true, 0, -1},
        {"codec_dec_s5", 8, 512, 256, 10, 4096, 5, 3, 1, 1, 1, true, true, 0, -1},
        {"single_utterance_x8", 1, 512, 256, 16, 861, 8, 4, 0, 1, 1, true, true, 0, -1},
    };
    Tensors t;
    uint64_t seed = (uint64_t)time(nullptr) * 1000003ULL;
    /* Configurations to check and time: argv[2] is a comma list of ids (-1 = the heuristic), default
     * all. run.sh runs the product's in one process and the experiments in another, so that a fault
     * in an experiment cannot take the product's results with it. */
    std::vector<int> cfgs;
    if (argc > 2) {
        for (const char *p = argv[2]; *p;) {
            char *end;
            cfgs.push_back((int)strtol(p, &end, 10));
            p = *end == ',' ? end + 1 : end;
            if (end == p && *p) break;
        }
    } else {
        cfgs.push_back(-1);
        for (int c = 0; c < CONVT1D_TC_NCFG; ++c) cfgs.push_back(c);
    }
    const std::vector<int> &tcfgs = cfgs;
    if (what == "check" || what == "all")
        for (auto &sh : check)
            for (int mode = 0; mode < 4; ++mode) {
                if (sh.only_mode >= 0 && mode != sh.only_mode) continue;
                for (int cfg : cfgs) {
                    if (sh.only_mode >= 0 && cfg >= 0) continue;
                    trial(sh, mode, cfg, t, false, ++seed);
                }
            }
    /* SHAPES=a,b,...: time only the bench shapes whose name contains one of these. */
    const char *only = getenv("SHAPES");
    auto wanted = [&](const std::string &name) {
        if (!only || !*only) return true;
        std::string list = only;
        for (size_t b = 0; b <= list.size();) {
            size_t e = list.find(',', b);
            if (e == std::string::npos) e = list.size();
            if (e > b && name.find(list.substr(b, e - b)) != std::string::npos) return true;
            b = e + 1;
        }
        return false;
    };
    if (what == "bench" || what == "all")
        for (auto &sh : bench)
            if (wanted(sh.name))
            for (int mode = 0; mode < 4; ++mode)
                for (int cfg : tcfgs) trial(sh, mode, cfg, t, true, ++seed);
    printf("harness: %d failures\n", g_fail);
    return g_fail ? 1 : 0;
}
