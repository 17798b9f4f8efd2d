/* Standalone harness for the tensor-core backward kernels (src/cuda/bwd_tc.cu).
 *
 *   validation: ~20 parameter combinations (odd sizes, groups, stride/dilation/padding, L_in = 1, empty
 *               batch, declined cases) x 6 variants (tf32 and strict fp32 = 3xTF32, each with the cp.async
 *               pipeline and with register staging ("-np"), f16, bf16), fresh random
 *               data each run, against a float64 brute-force reference on the CPU. Outputs are poisoned
 *               (NaN) with guard zones before and after, so unwritten elements and stray writes fail.
 *               grad_weight runs with the planned workspace and with none (single-split path), and twice
 *               with the workspace re-poisoned: the two results must match bitwise.
 *   timing:     (GPU build only) the big suite shapes, cudaEvent median, plus a sampled float64 check of
 *               the big outputs (64-bit offsets, tile tails at scale).
 *
 * Built by run.sh with nvcc for the GPU, or with g++ -DCONVT1D_BWD_EMU to run the same kernels in the
 * host emulator (dev/cuda/bwd/bwd_tc_emu.h), which validates on a machine without a GPU.
 * Exit status: 0 when every check passed, 1 otherwise.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "kernels.cuh"

/* ------------------------------------------------------------------ device memory (or host in emu) */
#ifdef CONVT1D_BWD_EMU
static void *dmalloc(size_t b) { return malloc(b ? b : 1); }
static void dfree(void *p) { free(p); }
static void h2d(void *d, const void *h, size_t b) { memcpy(d, h, b); }
static void d2h(void *h, const void *d, size_t b) { memcpy(h, d, b); }
static void dsync(const char *) {}
#else
static void cuda_die(cudaError_t e, const char *what) {
    fprintf(stderr, "FATAL: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
}
static void *dmalloc(size_t b) {
    void *p = nullptr;
    cudaError_t e = cudaMalloc(&p, b ? b : 1);
    if (e != cudaSuccess) cuda_die(e, "cudaMalloc");
    return p;
}
static void dfree(void *p) { cudaFree(p); }
static void h2d(void *d, const void *h, size_t b) {
    cudaError_t e = cudaMemcpy(d, h, b, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) cuda_die(e, "cudaMemcpy H2D");
}
static void d2h(void *h, const void *d, size_t b) {
    cudaError_t e = cudaMemcpy(h, d, b, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) cuda_die(e, "cudaMemcpy D2H");
}
static void dsync(const char *what) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) cuda_die(e, what);
}
#endif

/* ------------------------------------------------------------------ data */
static uint64_t rng_state;
static uint64_t next_u64() { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static float uniform() { return (float)((next_u64() >> 40) * (1.0 / (1 << 24)) * 2.0 - 1.0); }

static size_t esize(convt1d_dtype dt) { return dt == CONVT1D_F32 ? 4 : 2; }

/* Random values rounded to the dtype: raw bytes for the device, doubles for the reference. */
static void make_tensor(convt1d_dtype dt, size_t n, std::vector<unsigned char> &raw, std::vector<double> &val) {
    raw.resize(n * esize(dt));
    val.resize(n);
    for (size_t i = 0; i < n; ++i) {
        float f = uniform();
        if (dt == CONVT1D_F32) {
            memcpy(&raw[4 * i], &f, 4);
            val[i] = f;
        } else if (dt == CONVT1D_F16) {
            __half h = __float2half_rn(f);
            memcpy(&raw[2 * i], &h, 2);
            val[i] = __half2float(h);
        } else {
            __nv_bfloat16 h = __float2bfloat16_rn(f);
            memcpy(&raw[2 * i], &h, 2);
            val[i] = __bfloat162float(h);
        }
    }
}
static double read_elem(convt1d_dtype dt, const unsigned char *p, size_t i) {
    if (dt == CONVT1D_F32) {
        float f;
        memcpy(&f, p + 4 * i, 4);
        return f;
    }
    if (dt == CONVT1D_F16) {
        __half h;
        memcpy(&h, p + 2 * i, 2);
        return __half2float(h);
    }
    __nv_bfloat16 h;
    memcpy(&h, p + 2 * i, 2);
    return __bfloat162float(h);
}

/* ------------------------------------------------------------------ problems */
struct Cfg {
    const char *name;
    int64_t N, Cin, Cout, L, K, s, p, op, d, G;
    bool expect_tc; /* the tensor-core path should take it */
};

static bool make_problem(const Cfg &c, convt1d_dtype dt, convt1d_math math, convt1d_problem *pr) {
    convt1d_params p = convt1d_params_make(c.N, c.Cin, c.Cout, c.L, c.K);
    p.stride = c.s;
    p.padding = c.p;
    p.output_padding = c.op;
    p.dilation = c.d;
    p.groups = c.G;
    int64_t lout = 0;
    if (convt1d_validate(&p, &lout) != CONVT1D_SUCCESS) {
        printf("  config %s invalid: %s\n", c.name, convt1d_last_error());
        return false;
    }
    pr->p = p;
    pr->out_length = lout;
    pr->cin_g = c.Cin / c.G;
    pr->cout_g = c.Cout / c.G;
    pr->dtype = dt;
    pr->math = math;
    return true;
}

/* Reference grad_x[n, c, i] (and the L1 / L2 norms of its terms) at one element. GY, W, X: element
 * getters (index -> double), so the big-shape check reads the raw device copies without a double copy. */
template <typename GY, typename W>
static void ref_gx(const convt1d_problem &pr, const GY &gy, const W &w, int64_t n, int64_t c, int64_t i, double *v,
                   double *l1, double *l2) {
    const convt1d_params &p = pr.p;
    const int64_t g = c / pr.cin_g;
    double s = 0, a1 = 0, a2 = 0;
    for (int64_t co = 0; co < pr.cout_g; ++co)
        for (int64_t k = 0; k < p.kernel_size; ++k) {
            const int64_t o = i * p.stride + k * p.dilation - p.padding;
            if (o < 0 || o >= pr.out_length) continue;
            const double t = w((c * pr.cout_g + co) * p.kernel_size + k) *
                             gy((n * p.out_channels + g * pr.cout_g + co) * pr.out_length + o);
            s += t;
            a1 += fabs(t);
            a2 += t * t;
        }
    *v = s;
    *l1 = a1;
    *l2 = sqrt(a2);
}
template <typename GY, typename X>
static void ref_gw(const convt1d_problem &pr, const GY &gy, const X &x, int64_t c, int64_t co, int64_t k, double *v,
                   double *l1, double *l2) {
    const convt1d_params &p = pr.p;
    const int64_t g = c / pr.cin_g;
    double s = 0, a1 = 0, a2 = 0;
    for (int64_t n = 0; n < p.batch; ++n) {
        const int64_t xr = (n * p.in_channels + c) * p.in_length;
        const int64_t gr = (n * p.out_channels + g * pr.cout_g + co) * pr.out_length;
        for (int64_t i = 0; i < p.in_length; ++i) {
            const int64_t o = i * p.stride + k * p.dilation - p.padding;
            if (o < 0 || o >= pr.out_length) continue;
            const double t = x(xr + i) * gy(gr + o);
            s += t;
            a1 += fabs(t);
            a2 += t * t;
        }
    }
    *v = s;
    *l1 = a1;
    *l2 = sqrt(a2);
}
/* Getter over a std::vector<double>. */
struct VecGet {
    const std::vector<double> &v;
    double operator()(int64_t i) const { return v[i]; }
};
/* Getter over raw dtype bytes. */
struct RawGet {
    convt1d_dtype dt;
    const unsigned char *p;
    double operator()(int64_t i) const { return read_elem(dt, p, i); }
};

struct Variant {
    const char *name;
    convt1d_dtype dt;
    convt1d_math math;
    double tl1, tl2, tout, atol; /* |err| <= tl1*L1 + tl2*L2 + tout*|ref| + atol */
    int pipe;                    /* cp.async double-buffered path (1) or synchronous staging (0) */
};
static const Variant kVariants[] = {
    /* tf32: each operand rounded to 11 significant bits (<= 2^-11 relative), so a product is within
     * ~2^-10 of exact: a hard bound of ~1e-3 * L1; 2e-3 leaves room for fp32 accumulation. */
    {"tf32", CONVT1D_F32, CONVT1D_MATH_ALLOW_TF32, 2e-3, 0, 0, 1e-30, 1},
    {"tf32-np", CONVT1D_F32, CONVT1D_MATH_ALLOW_TF32, 2e-3, 0, 0, 1e-30, 0},
    /* strict: 3xTF32 keeps ~21 bits per product; random-sign fp32 accumulation error grows like
     * eps*sqrt(n)*L2. A plain-TF32 result is ~3e-4*L2 off, so this bound catches a silent tf32 path. */
    {"strict", CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, 2e-6, 2e-5, 0, 1e-30, 1},
    {"strict-np", CONVT1D_F32, CONVT1D_MATH_STRICT_FP32, 2e-6, 2e-5, 0, 1e-30, 0},
    /* f16 / bf16: products exact in fp32, fp32 accumulation, one rounding of the output. pipe: raw
     * halves by cp.async + repack (1) or synchronous pair staging (0). */
    {"f16", CONVT1D_F16, CONVT1D_MATH_ALLOW_TF32, 1e-5, 0, 1.0 / 1024, 1e-7, 1},
    {"bf16", CONVT1D_BF16, CONVT1D_MATH_ALLOW_TF32, 1e-5, 0, 1.0 / 128, 1e-30, 1},
    {"bf16-np", CONVT1D_BF16, CONVT1D_MATH_ALLOW_TF32, 1e-5, 0, 1.0 / 128, 1e-30, 0},
};

struct Check {
    double worst = 0;   /* max err/tol */
    double worst_l2 = 0;/* max err/L2 (informational) */
    int64_t bad = 0, nan = 0, checked = 0;
    std::string first;
    void add(const Variant &v, double got, double ref, double l1, double l2, const char *what, int64_t idx) {
        ++checked;
        const double tol = v.tl1 * l1 + v.tl2 * l2 + v.tout * fabs(ref) + v.atol;
        const double err = fabs(got - ref);
        if (std::isnan(got)) {
            ++nan;
            ++bad;
            if (first.empty()) first = std::string(what) + "[" + std::to_string(idx) + "] is NaN (never written?)";
            return;
        }
        const double r = err / tol;
        if (r > worst) worst = r;
        if (l2 > 0 && err / l2 > worst_l2) worst_l2 = err / l2;
        if (!(err <= tol)) {
            ++bad;
            if (first.empty()) {
                char b[256];
                snprintf(b, sizeof b, "%s[%lld] got %.9g want %.9g (tol %.3g)", what, (long long)idx, got, ref, tol);
                first = b;
            }
        }
    }
};

static int failures = 0;
static void fail(const char *fmt, const char *a, const char *b, const std::string &msg) {
    ++failures;
    printf("  FAIL %-22s %-6s %s: %s\n", a, b, fmt, msg.c_str());
}

constexpr size_t kGuard = 256; /* poisoned bytes before and after every output */

/* A device buffer with guard zones, all bytes 0xFF (NaN in every dtype). */
struct Guarded {
    unsigned char *base = nullptr;
    size_t bytes = 0;
    void alloc(size_t b) {
        bytes = b;
        base = (unsigned char *)dmalloc(b + 2 * kGuard);
    }
    void poison() {
        std::vector<unsigned char> h(bytes + 2 * kGuard, 0xff);
        h2d(base, h.data(), h.size());
    }
    void *ptr() { return base + kGuard; }
    /* Copies the payload out; false when a guard byte changed. */
    bool fetch(std::vector<unsigned char> &out) {
        std::vector<unsigned char> h(bytes + 2 * kGuard);
        d2h(h.data(), base, h.size());
        out.assign(h.begin() + kGuard, h.begin() + kGuard + bytes);
        for (size_t i = 0; i < kGuard; ++i)
            if (h[i] != 0xff || h[kGuard + bytes + i] != 0xff) return false;
        return true;
    }
    ~Guarded() {
        if (base) dfree(base);
    }
};

struct Row {
    std::string cfg, var, in_res, w_res;
};
static std::vector<Row> rows;

static std::string fmt_check(const Check &c) {
    char b[96];
    if (c.bad) snprintf(b, sizeof b, "FAIL %lld/%lld", (long long)c.bad, (long long)c.checked);
    else snprintf(b, sizeof b, "ok %.2f (%.1e)", c.worst, c.worst_l2);
    return b;
}

static void validate(const Cfg &c) {
    for (const Variant &v : kVariants) {
        convt1d_bwd_tc_set_pipeline(v.pipe);
        convt1d_problem pr;
        if (!make_problem(c, v.dt, v.math, &pr)) {
            fail("bad config", c.name, v.name, "");
            continue;
        }
        const convt1d_params &p = pr.p;
        const int64_t nx = p.batch * p.in_channels * p.in_length;
        const int64_t nw = p.in_channels * pr.cout_g * p.kernel_size;
        const int64_t ny = p.batch * p.out_channels * pr.out_length;
        std::vector<unsigned char> rx, rw, rgy;
        std::vector<double> vx, vw, vgy;
        make_tensor(v.dt, nx, rx, vx);
        make_tensor(v.dt, nw, rw, vw);
        make_tensor(v.dt, ny, rgy, vgy);
        const size_t es = esize(v.dt);
        void *dx = dmalloc(nx * es), *dw = dmalloc(nw * es), *dgy = dmalloc(ny * es);
        h2d(dx, rx.data(), nx * es);
        h2d(dw, rw.data(), nw * es);
        h2d(dgy, rgy.data(), ny * es);
        Row row{c.name, v.name, "", ""};

        /* ---- grad_input */
        {
            Guarded gx;
            gx.alloc(nx * es);
            gx.poison();
            convt1d_status st = convt1d_bwd_input_tc(pr, dgy, dw, gx.ptr(), 0);
            dsync("grad_input kernel");
            if (st == CONVT1D_ERROR_NOT_SUPPORTED) {
                row.in_res = "declined";
                if (c.expect_tc) fail("grad_input declined", c.name, v.name, "expected the tc path");
            } else if (st != CONVT1D_SUCCESS) {
                row.in_res = "ERROR";
                fail("grad_input status", c.name, v.name, convt1d_last_error());
            } else {
                if (!c.expect_tc) fail("grad_input taken", c.name, v.name, "expected NOT_SUPPORTED");
                std::vector<unsigned char> out;
                Check ck;
                if (!gx.fetch(out)) fail("grad_input", c.name, v.name, "wrote outside grad_x (guard changed)");
                for (int64_t n = 0; n < p.batch; ++n)
                    for (int64_t ci = 0; ci < p.in_channels; ++ci)
                        for (int64_t i = 0; i < p.in_length; ++i) {
                            double r, l1, l2;
                            ref_gx(pr, VecGet{vgy}, VecGet{vw}, n, ci, i, &r, &l1, &l2);
                            const int64_t idx = (n * p.in_channels + ci) * p.in_length + i;
                            ck.add(v, read_elem(v.dt, out.data(), idx), r, l1, l2, "grad_x", idx);
                        }
                if (ck.bad) fail("grad_input", c.name, v.name, ck.first);
                row.in_res = nx ? fmt_check(ck) : "ok (empty)";
            }
        }

        /* ---- grad_weight: planned workspace, no workspace, and a bitwise repeat */
        {
            size_t wsb = 0;
            convt1d_status wst = convt1d_bwd_weight_tc_workspace(pr, &wsb);
            Guarded ws;
            ws.alloc(wsb);
            std::vector<unsigned char> first_out;
            std::string res;
            for (int pass = 0; pass < 3; ++pass) {
                const bool use_ws = pass != 1;
                if (pass == 1 && wsb == 0) continue; /* the no-workspace pass only differs with splits */
                Guarded gw;
                gw.alloc(nw * es);
                gw.poison();
                ws.poison();
                convt1d_status st = convt1d_bwd_weight_tc(pr, dgy, dx, gw.ptr(), use_ws ? ws.ptr() : nullptr,
                                                          use_ws ? wsb : 0, 0);
                dsync("grad_weight kernel");
                if (st == CONVT1D_ERROR_NOT_SUPPORTED) {
                    res = "declined";
                    if (c.expect_tc) fail("grad_weight declined", c.name, v.name, "expected the tc path");
                    if (wst != CONVT1D_ERROR_NOT_SUPPORTED)
                        fail("grad_weight", c.name, v.name, "workspace query and launcher disagree");
                    break;
                }
                if (st != CONVT1D_SUCCESS) {
                    res = "ERROR";
                    fail("grad_weight status", c.name, v.name, convt1d_last_error());
                    break;
                }
                if (!c.expect_tc) fail("grad_weight taken", c.name, v.name, "expected NOT_SUPPORTED");
                std::vector<unsigned char> out;
                if (!gw.fetch(out)) fail("grad_weight", c.name, v.name, "wrote outside grad_w (guard changed)");
                if (pass == 0) {
                    Check ck;
                    for (int64_t ci = 0; ci < p.in_channels; ++ci)
                        for (int64_t co = 0; co < pr.cout_g; ++co)
                            for (int64_t k = 0; k < p.kernel_size; ++k) {
                                double r, l1, l2;
                                ref_gw(pr, VecGet{vgy}, VecGet{vx}, ci, co, k, &r, &l1, &l2);
                                const int64_t idx = (ci * pr.cout_g + co) * p.kernel_size + k;
                                ck.add(v, read_elem(v.dt, out.data(), idx), r, l1, l2, "grad_w", idx);
                            }
                    if (ck.bad) fail("grad_weight", c.name, v.name, ck.first);
                    res = fmt_check(ck);
                    if (wsb) res += " ws" + std::to_string(wsb >> 10) + "K";
                    first_out = out;
                } else if (pass == 1) {
                    Check ck;
                    for (int64_t e = 0; e < nw; ++e) {
                        const int64_t k = e % p.kernel_size, co = (e / p.kernel_size) % pr.cout_g,
                                      ci = e / (p.kernel_size * pr.cout_g);
                        double r, l1, l2;
                        ref_gw(pr, VecGet{vgy}, VecGet{vx}, ci, co, k, &r, &l1, &l2);
                        ck.add(v, read_elem(v.dt, out.data(), e), r, l1, l2, "grad_w(no ws)", e);
                    }
                    if (ck.bad) fail("grad_weight without workspace", c.name, v.name, ck.first);
                    res += ck.bad ? " nows:FAIL" : " nows:ok";
                } else {
                    if (out != first_out) {
                        fail("grad_weight", c.name, v.name, "not bitwise deterministic across two runs");
                        res += " det:FAIL";
                    } else
                        res += " det:ok";
                }
            }
            row.w_res = res;
        }
        rows.push_back(row);
        dfree(dx);
        dfree(dw);
        dfree(dgy);
    }
}

/* Empty batch: grad_x untouched (empty), grad_w must become exactly zero. */
static void validate_empty_batch() {
    for (const Variant &v : kVariants) {
        convt1d_bwd_tc_set_pipeline(v.pipe);
        Cfg c{"empty_batch", 0, 16, 24, 50, 3, 2, 1, 0, 1, 1, true};
        convt1d_problem pr;
        if (!make_problem(c, v.dt, v.math, &pr)) {
            fail("bad config", c.name, v.name, "");
            continue;
        }
        const int64_t nw = pr.p.in_channels * pr.cout_g * pr.p.kernel_size;
        const size_t es = esize(v.dt);
        Guarded gw;
        gw.alloc(nw * es);
        gw.poison();
        size_t wsb = 123;
        convt1d_status s0 = convt1d_bwd_weight_tc_workspace(pr, &wsb);
        convt1d_status s1 = convt1d_bwd_input_tc(pr, nullptr, nullptr, nullptr, 0);
        convt1d_status s2 = convt1d_bwd_weight_tc(pr, nullptr, nullptr, gw.ptr(), nullptr, 0, 0);
        dsync("empty batch");
        std::vector<unsigned char> out;
        bool guard_ok = gw.fetch(out);
        bool zero = std::all_of(out.begin(), out.end(), [](unsigned char b) { return b == 0; });
        std::string res = (s0 == CONVT1D_SUCCESS && wsb == 0 && s1 == CONVT1D_SUCCESS && s2 == CONVT1D_SUCCESS &&
                           guard_ok && zero)
                              ? "ok"
                              : "FAIL";
        if (res != "ok") fail("empty batch", c.name, v.name, "status, workspace or zeroed grad_w wrong");
        rows.push_back(Row{c.name, v.name, s1 == CONVT1D_SUCCESS ? "ok (empty)" : "FAIL", res + " (zeroed)"});
    }
}

static const Cfg kConfigs[] = {
    /* name               N  Cin Cout    L   K  s  p op  d  G  tc */
    {"basic", 2, 16, 16, 200, 3, 1, 0, 0, 1, 1, true},
    {"kb64_mini", 2, 128, 128, 300, 3, 1, 0, 0, 1, 1, true},
    {"kb74_mini", 2, 32, 64, 333, 5, 1, 0, 0, 3, 1, true},
    {"kb79_mini", 3, 32, 64, 257, 3, 2, 1, 0, 2, 1, true},
    {"x8_k16", 1, 64, 32, 77, 16, 8, 4, 0, 1, 1, true},
    {"s5_k10_op1", 2, 48, 24, 61, 10, 5, 3, 1, 1, 1, true},
    {"s2_k4", 2, 40, 20, 129, 4, 2, 1, 0, 1, 1, true},
    {"grouped_g4", 2, 64, 64, 100, 4, 2, 1, 0, 1, 4, true},
    {"odd_37x19", 3, 37, 19, 131, 3, 1, 1, 0, 1, 1, true},
    {"tiny_9x7_s3", 1, 9, 7, 5, 2, 3, 0, 2, 1, 1, true},
    {"cout1_k5", 2, 16, 1, 150, 5, 1, 0, 0, 1, 1, true},
    {"k1_33x65", 2, 33, 65, 190, 1, 1, 0, 0, 1, 1, true},
    {"big_pad", 2, 24, 24, 50, 7, 1, 5, 0, 1, 1, true},
    {"dil40", 1, 16, 16, 64, 3, 1, 0, 0, 40, 1, true},
    {"s5_k2_op3", 2, 16, 12, 70, 2, 5, 0, 3, 1, 1, true},
    {"g3_odd", 2, 36, 15, 77, 3, 2, 2, 1, 2, 3, true},
    {"L1", 4, 16, 16, 1, 4, 2, 0, 0, 1, 1, true},
    {"cin130_3tiles", 1, 130, 40, 260, 3, 1, 1, 0, 1, 1, true},
    {"long_splits", 3, 16, 16, 3000, 3, 1, 1, 0, 1, 1, true},
    {"cout200_chunks", 1, 16, 200, 50, 3, 1, 0, 0, 1, 1, true},
    {"wide_bm128_s3", 2, 130, 10, 16900, 4, 3, 1, 0, 1, 1, true}, /* >= 264 tiles: 256-thread grad_input */
    /* L_in a multiple of 8: 16-bit grad_weight takes the cp.async pipeline (raw gy halves + repack) */
    {"vec_kb79", 3, 32, 64, 256, 3, 2, 1, 0, 2, 1, true},
    {"vec_odd_total", 1, 24, 9, 64, 3, 2, 1, 0, 1, 1, true}, /* N*C_out*L_out odd: gy's last element alone */
    {"vec_s5_op1", 2, 48, 24, 64, 10, 5, 3, 1, 1, 1, true},
    {"vec_x8_k16", 1, 64, 32, 80, 16, 8, 4, 0, 1, 1, true},
    {"vec_g4", 2, 64, 64, 96, 4, 2, 1, 0, 1, 4, true},
    {"vec_kb74", 2, 32, 64, 328, 5, 1, 0, 0, 3, 1, true},
    {"vec_big_pad", 2, 24, 24, 56, 7, 1, 5, 0, 1, 1, true},
    {"vec_odd_cout_s3", 3, 40, 11, 136, 4, 3, 2, 2, 2, 1, true},
    {"cin_g4_declined", 2, 8, 8, 40, 3, 1, 0, 0, 1, 2, false},
};

/* ------------------------------------------------------------------ timing (GPU; emulation: sampled check only) */
#ifndef CONVT1D_BWD_EMU
__global__ void fill_kernel(void *p, int64_t n, int dt, uint64_t seed) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        uint64_t z = seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        const float f = (float)((z >> 40) * (1.0 / (1 << 24)) * 2.0 - 1.0);
        if (dt == CONVT1D_F32) ((float *)p)[i] = f;
        else if (dt == CONVT1D_F16) ((__half *)p)[i] = __float2half_rn(f);
        else ((__nv_bfloat16 *)p)[i] = __float2bfloat16_rn(f);
    }
}
static void fill(void *p, int64_t n, convt1d_dtype dt) {
    fill_kernel<<<2048, 256>>>(p, n, (int)dt, next_u64());
    dsync("fill");
}
#else
static void fill(void *p, int64_t n, convt1d_dtype dt) {
    std::vector<unsigned char> raw;
    std::vector<double> val;
    make_tensor(dt, (size_t)n, raw, val);
    h2d(p, raw.data(), raw.size());
}
#endif

struct BigShape {
    const char *name;
    int64_t N, Cin, Cout, L, K, s, p, op, d, G;
    double cudnn_fb_ms; /* cuDNN fp32 fwd+bwd on H200 (tests/problems.json), for context only */
};
#ifdef CONVT1D_BWD_EMU
static const BigShape kBig[] = {
    {"emu_bench_s2", 2, 72, 40, 300, 4, 2, 1, 0, 1, 1, 0},
    {"emu_bench_g2", 1, 160, 48, 400, 3, 1, 1, 0, 2, 2, 0},
};
#else
static const BigShape kBig[] = {
    {"kernelbench_64", 64, 128, 128, 65536, 3, 1, 0, 0, 1, 1, 12.444},
    {"kernelbench_74", 32, 32, 64, 131072, 5, 1, 0, 0, 3, 1, 6.8617},
    {"kernelbench_79", 16, 32, 64, 131072, 3, 2, 1, 0, 2, 1, 4.4702},
    {"upsample_x8_bias", 16, 512, 256, 8192, 16, 8, 4, 0, 1, 1, 9.3673},
    {"grouped_g4", 32, 256, 256, 16384, 4, 2, 1, 0, 1, 4, 6.4293},
    {"hifigan_up1", 16, 512, 256, 2048, 16, 8, 4, 0, 1, 1, 2.366},
    {"hifigan_up2", 16, 256, 128, 16384, 16, 8, 4, 0, 1, 1, 6.7534},
    {"hifigan_up3", 16, 128, 64, 131072, 4, 2, 1, 0, 1, 1, 6.9072},
    {"hifigan_up4", 16, 64, 32, 262144, 4, 2, 1, 0, 1, 1, 9.374},
    {"codec_dec_s8", 8, 1536, 768, 1024, 16, 8, 4, 0, 1, 1, 4.5801},
    {"codec_dec_s5", 8, 512, 256, 4096, 10, 5, 3, 1, 1, 1, 1.7687},
    {"single_utterance_x8", 1, 512, 256, 861, 16, 8, 4, 0, 1, 1, 0.195},
};
#endif

template <typename F> static double time_ms(F f, int reps) {
#ifdef CONVT1D_BWD_EMU
    (void)reps;
    f();
    return 0.0;
#endif
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int i = 0; i < 3; ++i) f();
    dsync("warmup");
    std::vector<float> t;
    for (int i = 0; i < reps; ++i) {
        cudaEventRecord(a);
        f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms);
    }
    dsync("timing");
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct TRow {
    std::string shape, var;
    double in_ms, w_ms, tflop, cudnn;
    std::string check;
};
static std::vector<TRow> trows;

static void bench(const BigShape &b, const Variant &v) {
    convt1d_bwd_tc_set_pipeline(v.pipe);
    Cfg c{b.name, b.N, b.Cin, b.Cout, b.L, b.K, b.s, b.p, b.op, b.d, b.G, true};
    convt1d_problem pr;
    if (!make_problem(c, v.dt, v.math, &pr)) return;
    const convt1d_params &p = pr.p;
    const int64_t nx = p.batch * p.in_channels * p.in_length;
    const int64_t nw = p.in_channels * pr.cout_g * p.kernel_size;
    const int64_t ny = p.batch * p.out_channels * pr.out_length;
    const size_t es = esize(v.dt);
    void *dx = dmalloc(nx * es), *dw = dmalloc(nw * es), *dgy = dmalloc(ny * es);
    void *dgx = dmalloc(nx * es), *dgw = dmalloc(nw * es);
    fill(dx, nx, v.dt);
    fill(dw, nw, v.dt);
    fill(dgy, ny, v.dt);
    size_t wsb = 0;
    TRow tr{b.name, v.name, -1, -1, 0, b.cudnn_fb_ms, ""};
    tr.tflop = 2.0 * (double)p.batch * p.in_length * p.in_channels * pr.cout_g * p.kernel_size / 1e12;
    convt1d_status ws_st = convt1d_bwd_weight_tc_workspace(pr, &wsb);
    void *dws = dmalloc(wsb);
    convt1d_status si = convt1d_bwd_input_tc(pr, dgy, dw, dgx, 0);
    convt1d_status sw = ws_st == CONVT1D_SUCCESS ? convt1d_bwd_weight_tc(pr, dgy, dx, dgw, dws, wsb, 0) : ws_st;
    dsync("bench first run");
    if (si == CONVT1D_SUCCESS) tr.in_ms = time_ms([&] { convt1d_bwd_input_tc(pr, dgy, dw, dgx, 0); }, 15);
    if (sw == CONVT1D_SUCCESS)
        tr.w_ms = time_ms([&] { convt1d_bwd_weight_tc(pr, dgy, dx, dgw, dws, wsb, 0); }, 15);
    if (si != CONVT1D_SUCCESS && si != CONVT1D_ERROR_NOT_SUPPORTED) fail("bench grad_input", b.name, v.name, convt1d_last_error());
    if (sw != CONVT1D_SUCCESS && sw != CONVT1D_ERROR_NOT_SUPPORTED) fail("bench grad_weight", b.name, v.name, convt1d_last_error());

    /* Sampled float64 check of the last results (inputs copied back). */
    std::vector<unsigned char> hx(nx * es), hw(nw * es), hgy(ny * es), hgx(nx * es), hgw(nw * es);
    d2h(hx.data(), dx, hx.size());
    d2h(hw.data(), dw, hw.size());
    d2h(hgy.data(), dgy, hgy.size());
    d2h(hgx.data(), dgx, hgx.size());
    d2h(hgw.data(), dgw, hgw.size());
    const RawGet x_get{v.dt, hx.data()}, w_get{v.dt, hw.data()}, gy_get{v.dt, hgy.data()};
    Check ci, cw;
    if (si == CONVT1D_SUCCESS)
        for (int s = 0; s < 3000; ++s) {
            int64_t idx = s == 0 ? nx - 1 : s == 1 ? 0 : (int64_t)(next_u64() % (uint64_t)nx);
            const int64_t i = idx % p.in_length, c2 = (idx / p.in_length) % p.in_channels,
                          n = idx / (p.in_length * p.in_channels);
            double r, l1, l2;
            ref_gx(pr, gy_get, w_get, n, c2, i, &r, &l1, &l2);
            ci.add(v, read_elem(v.dt, hgx.data(), idx), r, l1, l2, "grad_x", idx);
        }
    if (sw == CONVT1D_SUCCESS)
        for (int s = 0; s < 16; ++s) {
            int64_t e = s == 0 ? nw - 1 : (int64_t)(next_u64() % (uint64_t)nw);
            const int64_t k = e % p.kernel_size, co = (e / p.kernel_size) % pr.cout_g,
                          c2 = e / (p.kernel_size * pr.cout_g);
            double r, l1, l2;
            ref_gw(pr, gy_get, x_get, c2, co, k, &r, &l1, &l2);
            cw.add(v, read_elem(v.dt, hgw.data(), e), r, l1, l2, "grad_w", e);
        }
    if (ci.bad) fail("bench grad_input sampled check", b.name, v.name, ci.first);
    if (cw.bad) fail("bench grad_weight sampled check", b.name, v.name, cw.first);
    tr.check = std::string(si == CONVT1D_SUCCESS ? (ci.bad ? "in:FAIL" : "in:ok") : "in:declined") + " " +
               (sw == CONVT1D_SUCCESS ? (cw.bad ? "w:FAIL" : "w:ok") : "w:declined");
    char wsbuf[32];
    snprintf(wsbuf, sizeof wsbuf, " ws=%.1fMB", wsb / 1048576.0);
    tr.check += wsbuf;
    trows.push_back(tr);
    dfree(dx);
    dfree(dw);
    dfree(dgy);
    dfree(dgx);
    dfree(dgw);
    dfree(dws);
}

int main(int argc, char **argv) {
    const char *seed_env = getenv("SEED");
    uint64_t seed = seed_env ? strtoull(seed_env, nullptr, 0) : (uint64_t)time(nullptr);
    rng_state = seed;
    bool do_bench = true, do_validate = true;
    const char *only = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--no-bench")) do_bench = false;
        else if (!strcmp(argv[i], "--no-validate")) do_validate = false;
        else only = argv[i]; /* substring filter on config / shape names */
    }
    printf("bwd_tc harness, seed %llu%s\n", (unsigned long long)seed,
#ifdef CONVT1D_BWD_EMU
           " (host emulation)"
#else
           ""
#endif
    );
#ifndef CONVT1D_BWD_EMU
    {
        cudaDeviceProp prop;
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess)
            printf("device: %s, sm_%d%d, %d SMs\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
    }
#endif
    if (do_validate) {
        for (const Cfg &c : kConfigs)
            if (!only || strstr(c.name, only)) {
                printf("validating %s ...\n", c.name);
                fflush(stdout);
                validate(c);
            }
        if (!only || strstr("empty_batch", only)) validate_empty_batch();
    }
    if (do_bench) {
        for (const BigShape &b : kBig) {
            if (only && !strstr(b.name, only)) continue;
            printf("timing %s ...\n", b.name);
            fflush(stdout);
            bench(b, kVariants[0]); /* tf32 (cp.async pipeline) */
            bench(b, kVariants[1]); /* tf32-np (register staging), for the A/B */
            bench(b, kVariants[5]); /* bf16 (cp.async pipeline) */
            bench(b, kVariants[6]); /* bf16-np (synchronous staging), for the A/B */
            if (!strncmp(b.name, "kernelbench", 11) || !strncmp(b.name, "emu", 3)) bench(b, kVariants[2]); /* strict */
        }
    }

    printf("\n== validation (worst err/tol, and err/L2 in parentheses; tol in bwd_bench.cu kVariants)\n");
    printf("%-16s %-7s %-26s %s\n", "config", "variant", "grad_input", "grad_weight");
    for (const Row &r : rows) printf("%-16s %-7s %-26s %s\n", r.cfg.c_str(), r.var.c_str(), r.in_res.c_str(), r.w_res.c_str());
    if (!trows.empty()) {
        printf("\n== timing (median of 15, cudaEvent; TFLOP/s = 2*N*L_in*C_in*C_out/G*K / time)\n");
        printf("%-20s %-7s %9s %8s %9s %8s %9s %11s  %s\n", "shape", "variant", "in_ms", "in_TF/s", "w_ms", "w_TF/s",
               "in+w_ms", "cudnnF+B32", "check");
        for (const TRow &t : trows) {
            char in_ms[16], in_tf[16], w_ms[16], w_tf[16], sum[16];
            if (t.in_ms >= 0) {
                snprintf(in_ms, 16, "%.3f", t.in_ms);
                snprintf(in_tf, 16, "%.1f", t.tflop / (t.in_ms * 1e-3));
            } else
                snprintf(in_ms, 16, "-"), snprintf(in_tf, 16, "-");
            if (t.w_ms >= 0) {
                snprintf(w_ms, 16, "%.3f", t.w_ms);
                snprintf(w_tf, 16, "%.1f", t.tflop / (t.w_ms * 1e-3));
            } else
                snprintf(w_ms, 16, "-"), snprintf(w_tf, 16, "-");
            if (t.in_ms >= 0 && t.w_ms >= 0) snprintf(sum, 16, "%.3f", t.in_ms + t.w_ms);
            else snprintf(sum, 16, "-");
            printf("%-20s %-7s %9s %8s %9s %8s %9s %11.3f  %s\n", t.shape.c_str(), t.var.c_str(), in_ms, in_tf, w_ms,
                   w_tf, sum, t.cudnn, t.check.c_str());
        }
    }
    printf("\n%s: %d failure(s), seed %llu\n", failures ? "FAILED" : "PASSED", failures, (unsigned long long)seed);
    return failures ? 1 : 0;
}
