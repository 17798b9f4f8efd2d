/* Checks the four CPU entry points against a brute-force definition computed in double.
 *
 * The reference is written straight from the definitions (scatter form for the forward, plain
 * nested loops for the gradients) and shares no code with src/cpu. Every output buffer is
 * poisoned with NaN before the call and followed by guard elements, so an unwritten element or a
 * write past the end fails. Each call is repeated with another thread count and must give the same
 * bytes.
 *
 * Error measure: |got - ref| <= tol * sum|terms| (+ a half-precision subnormal floor), which is the
 * relative error for sums without cancellation and stays meaningful when they cancel.
 *
 * Cases: every edge case of tests/problems.json, the small suite entries, a few medium cases that
 * cross the internal blocking sizes, and a few hundred seeded random configurations; each in F64,
 * F32, F16 and BF16. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convt1d.h"
#include "problem_cases.h"

static long n_checks = 0, n_failures = 0, n_calls = 0;

#define CHECK(cond, ...)                                                                               \
    do {                                                                                               \
        n_checks++;                                                                                    \
        if (!(cond)) {                                                                                 \
            if (n_failures++ < 40) {                                                                   \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
                fprintf(stderr, __VA_ARGS__);                                                          \
                fputc('\n', stderr);                                                                   \
            }                                                                                          \
        }                                                                                              \
    } while (0)

/* ---------------------------------------------------------------- random numbers (splitmix64) */
static uint64_t rng_state = 0x5eed1234abcdULL;
static uint64_t rng_u64(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static int64_t rng_int(int64_t lo, int64_t hi) { return lo + (int64_t)(rng_u64() % (uint64_t)(hi - lo + 1)); }
static double rng_unit(void) { return (double)(rng_u64() >> 11) * 0x1p-53 * 2.0 - 1.0; } /* [-1, 1) */

/* ---------------------------------------------------------------- element encode / decode */
static const char *dtype_name(convt1d_dtype dt) {
    switch (dt) {
    case CONVT1D_F32: return "f32";
    case CONVT1D_F16: return "f16";
    case CONVT1D_BF16: return "bf16";
    case CONVT1D_F64: return "f64";
    }
    return "?";
}

static double decode(convt1d_dtype dt, const void *buf, int64_t i) {
    switch (dt) {
    case CONVT1D_F64: return ((const double *)buf)[i];
    case CONVT1D_F32: return ((const float *)buf)[i];
    case CONVT1D_BF16: {
        uint32_t u = (uint32_t)((const uint16_t *)buf)[i] << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case CONVT1D_F16: {
        uint16_t h = ((const uint16_t *)buf)[i];
        int sign = h >> 15, e = (h >> 10) & 31, m = h & 1023;
        double v;
        if (e == 31) v = m ? NAN : INFINITY;
        else if (e == 0) v = ldexp(m, -24);
        else v = ldexp(1024 + m, e - 25);
        return sign ? -v : v;
    }
    }
    return NAN;
}

/* Stores v, which the caller made exactly representable in dt. */
static void encode_exact(convt1d_dtype dt, void *buf, int64_t i, double v) {
    switch (dt) {
    case CONVT1D_F64: ((double *)buf)[i] = v; break;
    case CONVT1D_F32: ((float *)buf)[i] = (float)v; break;
    case CONVT1D_BF16: {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        ((uint16_t *)buf)[i] = (uint16_t)(u >> 16);
        break;
    }
    case CONVT1D_F16: {
        uint16_t h = v < 0 ? 0x8000 : 0;
        double a = fabs(v);
        if (a != 0) {
            int e;
            double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
            if (e - 1 >= -14) h |= (uint16_t)(((e - 1 + 15) << 10) | (int)((m * 2 - 1) * 1024));
            else h |= (uint16_t)(a * 0x1p24);
        }
        ((uint16_t *)buf)[i] = h;
        break;
    }
    }
}

/* A random value exactly representable in dt: a multiple of 2^-10 (f16), 2^-7 (bf16) in (-1, 1),
 * or any float / double. */
static double random_value(convt1d_dtype dt) {
    double u = rng_unit();
    switch (dt) {
    case CONVT1D_F16: return round(u * 1024) / 1024;
    case CONVT1D_BF16: return round(u * 128) / 128;
    case CONVT1D_F32: return (float)u;
    default: return u;
    }
}

static void poison(convt1d_dtype dt, void *buf, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        switch (dt) {
        case CONVT1D_F64: ((double *)buf)[i] = NAN; break;
        case CONVT1D_F32: ((float *)buf)[i] = NAN; break;
        case CONVT1D_F16: ((uint16_t *)buf)[i] = 0x7e00; break;
        case CONVT1D_BF16: ((uint16_t *)buf)[i] = 0x7fc0; break;
        }
    }
}

#define GUARD 19
static const unsigned char guard_byte = 0xA5;

/* ---------------------------------------------------------------- the reference */
typedef struct {
    int64_t N, Cin, Cout, K, L, s, p, op, G, d, Lout, cig, cog;
} cfg;

typedef struct {
    double *val, *mag;
} ref_t;

static ref_t ref_alloc(int64_t n) {
    ref_t r = {calloc((size_t)(n ? n : 1), sizeof(double)), calloc((size_t)(n ? n : 1), sizeof(double))};
    if (!r.val || !r.mag) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return r;
}
static void ref_free(ref_t r) { free(r.val); free(r.mag); }

/* y[n, g*cog + co, i*s + k*d - p] += x[n, g*cig + ci, i] * w[g*cig + ci, co, k] */
static void ref_forward(const cfg *c, const double *x, const double *w, const double *b, ref_t y) {
    for (int64_t n = 0; n < c->N; n++)
        for (int64_t co = 0; co < c->Cout; co++)
            for (int64_t o = 0; o < c->Lout; o++) {
                int64_t e = (n * c->Cout + co) * c->Lout + o;
                y.val[e] = b ? b[co] : 0;
                y.mag[e] = b ? fabs(b[co]) : 0;
            }
    for (int64_t n = 0; n < c->N; n++)
        for (int64_t ci = 0; ci < c->Cin; ci++) {
            int64_t g = ci / c->cig;
            for (int64_t i = 0; i < c->L; i++) {
                double xv = x[(n * c->Cin + ci) * c->L + i];
                for (int64_t k = 0; k < c->K; k++) {
                    int64_t o = i * c->s + k * c->d - c->p;
                    if (o < 0 || o >= c->Lout) continue;
                    for (int64_t col = 0; col < c->cog; col++) {
                        double t = xv * w[(ci * c->cog + col) * c->K + k];
                        int64_t e = (n * c->Cout + g * c->cog + col) * c->Lout + o;
                        y.val[e] += t;
                        y.mag[e] += fabs(t);
                    }
                }
            }
        }
}

/* gx[n, ci, i] = sum_{col, k} w[ci, col, k] * gy[n, g*cog + col, i*s + k*d - p] */
static void ref_backward_input(const cfg *c, const double *gy, const double *w, ref_t gx) {
    for (int64_t n = 0; n < c->N; n++)
        for (int64_t ci = 0; ci < c->Cin; ci++) {
            int64_t g = ci / c->cig;
            for (int64_t i = 0; i < c->L; i++) {
                double v = 0, m = 0;
                for (int64_t col = 0; col < c->cog; col++)
                    for (int64_t k = 0; k < c->K; k++) {
                        int64_t o = i * c->s + k * c->d - c->p;
                        if (o < 0 || o >= c->Lout) continue;
                        double t = w[(ci * c->cog + col) * c->K + k] * gy[(n * c->Cout + g * c->cog + col) * c->Lout + o];
                        v += t;
                        m += fabs(t);
                    }
                gx.val[(n * c->Cin + ci) * c->L + i] = v;
                gx.mag[(n * c->Cin + ci) * c->L + i] = m;
            }
        }
}

/* gw[ci, col, k] = sum_{n, i} x[n, ci, i] * gy[n, g*cog + col, i*s + k*d - p] */
static void ref_backward_weight(const cfg *c, const double *gy, const double *x, ref_t gw) {
    for (int64_t ci = 0; ci < c->Cin; ci++) {
        int64_t g = ci / c->cig;
        for (int64_t col = 0; col < c->cog; col++)
            for (int64_t k = 0; k < c->K; k++) {
                double v = 0, m = 0;
                for (int64_t n = 0; n < c->N; n++)
                    for (int64_t i = 0; i < c->L; i++) {
                        int64_t o = i * c->s + k * c->d - c->p;
                        if (o < 0 || o >= c->Lout) continue;
                        double t = x[(n * c->Cin + ci) * c->L + i] * gy[(n * c->Cout + g * c->cog + col) * c->Lout + o];
                        v += t;
                        m += fabs(t);
                    }
                gw.val[(ci * c->cog + col) * c->K + k] = v;
                gw.mag[(ci * c->cog + col) * c->K + k] = m;
            }
    }
}

static void ref_backward_bias(const cfg *c, const double *gy, ref_t gb) {
    for (int64_t co = 0; co < c->Cout; co++) {
        double v = 0, m = 0;
        for (int64_t n = 0; n < c->N; n++)
            for (int64_t o = 0; o < c->Lout; o++) {
                double t = gy[(n * c->Cout + co) * c->Lout + o];
                v += t;
                m += fabs(t);
            }
        gb.val[co] = v;
        gb.mag[co] = m;
    }
}

/* ---------------------------------------------------------------- running one case */
static double tolerance(convt1d_dtype dt) {
    switch (dt) {
    case CONVT1D_F64: return 1e-12;
    case CONVT1D_F32: return 1e-5;
    case CONVT1D_F16: return 1e-3;  /* one rounding to 11 bits is 4.9e-4 */
    case CONVT1D_BF16: return 5e-3; /* one rounding to 8 bits is 3.9e-3 */
    }
    return 0;
}

typedef struct {
    unsigned char *mem; /* n elements, then GUARD elements of guard bytes */
    int64_t n;
} outbuf;

static outbuf out_alloc(convt1d_dtype dt, int64_t n) {
    size_t es = convt1d_dtype_size(dt);
    outbuf o = {malloc((size_t)(n + GUARD) * es), n};
    if (!o.mem) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    poison(dt, o.mem, n);
    memset(o.mem + (size_t)n * es, guard_byte, GUARD * es);
    return o;
}

static int guard_ok(convt1d_dtype dt, const outbuf *o) {
    size_t es = convt1d_dtype_size(dt);
    for (size_t i = 0; i < GUARD * es; i++)
        if (o->mem[(size_t)o->n * es + i] != guard_byte) return 0;
    return 1;
}

/* Compares got (dt) with the reference; returns the worst error / (tol * mag) ratio. */
static double compare(const char *what, const char *label, convt1d_dtype dt, const outbuf *got, ref_t ref) {
    double tol = tolerance(dt), worst = 0;
    double floor_abs = dt == CONVT1D_F16 ? 0x1p-25 : 0; /* half subnormal rounding */
    long bad = 0;
    for (int64_t e = 0; e < got->n; e++) {
        double g = decode(dt, got->mem, e);
        double err = fabs(g - ref.val[e]);
        double lim = tol * ref.mag[e] + floor_abs;
        if (!(err <= lim)) { /* NaN fails too */
            if (bad++ < 3)
                fprintf(stderr, "  %s %s [%s] element %lld: got %.17g, want %.17g (mag %.3g)\n", label, what,
                        dtype_name(dt), (long long)e, g, ref.val[e], ref.mag[e]);
        } else if (lim > 0 && err / lim > worst) {
            worst = err / lim;
        }
    }
    CHECK(bad == 0, "%s %s [%s]: %ld of %lld elements out of tolerance", label, what, dtype_name(dt), bad,
          (long long)got->n);
    CHECK(guard_ok(dt, got), "%s %s [%s]: wrote past the end of the output", label, what, dtype_name(dt));
    return worst;
}

static double worst_ratio[4] = {0, 0, 0, 0};

static void same_bytes(const char *what, const char *label, convt1d_dtype dt, const outbuf *a, const outbuf *b) {
    size_t bytes = (size_t)a->n * convt1d_dtype_size(dt);
    CHECK(memcmp(a->mem, b->mem, bytes) == 0, "%s %s [%s]: result depends on the thread count", label, what,
          dtype_name(dt));
}

static void run_case(const char *label, const convt1d_params *P, int with_bias, convt1d_dtype dt, int threads_a,
                     int threads_b) {
    int64_t Lout = 0;
    convt1d_status st = convt1d_output_length(P, &Lout);
    CHECK(st == CONVT1D_SUCCESS, "%s: output_length failed: %s", label, convt1d_last_error());
    if (st != CONVT1D_SUCCESS) return;
    cfg c = {P->batch, P->in_channels, P->out_channels, P->kernel_size, P->in_length, P->stride, P->padding,
             P->output_padding, P->groups, P->dilation, Lout, P->in_channels / P->groups,
             P->out_channels / P->groups};
    int64_t nx = c.N * c.Cin * c.L, nw = c.Cin * c.cog * c.K, ny = c.N * c.Cout * c.Lout;
    size_t es = convt1d_dtype_size(dt);
    void *x = malloc((size_t)(nx + 1) * es), *w = malloc((size_t)(nw + 1) * es), *b = malloc((size_t)c.Cout * es);
    void *gy = malloc((size_t)(ny + 1) * es);
    double *xd = malloc((size_t)(nx + 1) * 8), *wd = malloc((size_t)(nw + 1) * 8), *bd = malloc((size_t)c.Cout * 8);
    double *gyd = malloc((size_t)(ny + 1) * 8);
    if (!x || !w || !b || !gy || !xd || !wd || !bd || !gyd) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (int64_t i = 0; i < nx; i++) encode_exact(dt, x, i, xd[i] = random_value(dt));
    for (int64_t i = 0; i < nw; i++) encode_exact(dt, w, i, wd[i] = random_value(dt));
    for (int64_t i = 0; i < c.Cout; i++) encode_exact(dt, b, i, bd[i] = random_value(dt));
    for (int64_t i = 0; i < ny; i++) encode_exact(dt, gy, i, gyd[i] = random_value(dt));
    for (int64_t i = 0; i < nx; i++) /* the encoders must be exact */
        if (decode(dt, x, i) != xd[i]) {
            CHECK(0, "test bug: value not exact in %s", dtype_name(dt));
            break;
        }

    int ti = (int)(dt);
    ref_t r;
    outbuf o1, o2;

    /* forward */
    r = ref_alloc(ny);
    ref_forward(&c, xd, wd, with_bias ? bd : NULL, r);
    o1 = out_alloc(dt, ny), o2 = out_alloc(dt, ny);
    st = convt1d_forward_cpu(P, dt, x, w, with_bias ? b : NULL, o1.mem, threads_a);
    n_calls++;
    CHECK(st == CONVT1D_SUCCESS, "%s forward [%s]: status %d: %s", label, dtype_name(dt), st, convt1d_last_error());
    if (st == CONVT1D_SUCCESS) {
        double q = compare("forward", label, dt, &o1, r);
        if (q > worst_ratio[ti]) worst_ratio[ti] = q;
        st = convt1d_forward_cpu(P, dt, x, w, with_bias ? b : NULL, o2.mem, threads_b);
        n_calls++;
        CHECK(st == CONVT1D_SUCCESS, "%s forward (2nd) failed", label);
        same_bytes("forward", label, dt, &o1, &o2);
    }
    free(o1.mem), free(o2.mem), ref_free(r);

    /* backward input */
    r = ref_alloc(nx);
    ref_backward_input(&c, gyd, wd, r);
    o1 = out_alloc(dt, nx), o2 = out_alloc(dt, nx);
    st = convt1d_backward_input_cpu(P, dt, gy, w, o1.mem, threads_a);
    n_calls++;
    CHECK(st == CONVT1D_SUCCESS, "%s backward_input [%s]: status %d: %s", label, dtype_name(dt), st,
          convt1d_last_error());
    if (st == CONVT1D_SUCCESS) {
        double q = compare("backward_input", label, dt, &o1, r);
        if (q > worst_ratio[ti]) worst_ratio[ti] = q;
        st = convt1d_backward_input_cpu(P, dt, gy, w, o2.mem, threads_b);
        n_calls++;
        same_bytes("backward_input", label, dt, &o1, &o2);
    }
    free(o1.mem), free(o2.mem), ref_free(r);

    /* backward weight (written even for an empty batch: zeros) */
    r = ref_alloc(nw);
    ref_backward_weight(&c, gyd, xd, r);
    o1 = out_alloc(dt, nw), o2 = out_alloc(dt, nw);
    st = convt1d_backward_weight_cpu(P, dt, gy, x, o1.mem, threads_a);
    n_calls++;
    CHECK(st == CONVT1D_SUCCESS, "%s backward_weight [%s]: status %d: %s", label, dtype_name(dt), st,
          convt1d_last_error());
    if (st == CONVT1D_SUCCESS) {
        double q = compare("backward_weight", label, dt, &o1, r);
        if (q > worst_ratio[ti]) worst_ratio[ti] = q;
        st = convt1d_backward_weight_cpu(P, dt, gy, x, o2.mem, threads_b);
        n_calls++;
        same_bytes("backward_weight", label, dt, &o1, &o2);
    }
    free(o1.mem), free(o2.mem), ref_free(r);

    /* backward bias */
    r = ref_alloc(c.Cout);
    ref_backward_bias(&c, gyd, r);
    o1 = out_alloc(dt, c.Cout), o2 = out_alloc(dt, c.Cout);
    st = convt1d_backward_bias_cpu(P, dt, gy, o1.mem, threads_a);
    n_calls++;
    CHECK(st == CONVT1D_SUCCESS, "%s backward_bias [%s]: status %d: %s", label, dtype_name(dt), st,
          convt1d_last_error());
    if (st == CONVT1D_SUCCESS) {
        double q = compare("backward_bias", label, dt, &o1, r);
        if (q > worst_ratio[ti]) worst_ratio[ti] = q;
        st = convt1d_backward_bias_cpu(P, dt, gy, o2.mem, threads_b);
        n_calls++;
        same_bytes("backward_bias", label, dt, &o1, &o2);
    }
    free(o1.mem), free(o2.mem), ref_free(r);

    free(x), free(w), free(b), free(gy), free(xd), free(wd), free(bd), free(gyd);
}

static const convt1d_dtype all_dtypes[4] = {CONVT1D_F64, CONVT1D_F32, CONVT1D_F16, CONVT1D_BF16};
static int n_cases = 0;

static void run_all_dtypes(const char *label, const convt1d_params *P, int with_bias) {
    n_cases++;
    for (int t = 0; t < 4; t++) {
        int ta = (int)rng_int(1, 4), tb = ta == 1 ? 3 : 1;
        run_case(label, P, with_bias, all_dtypes[t], ta, tb);
    }
}

static convt1d_params from_case(const problem_case *pc) {
    convt1d_params p = convt1d_params_make(pc->N, pc->Cin, pc->Cout, pc->L, pc->K);
    p.stride = pc->stride;
    p.padding = pc->padding;
    p.output_padding = pc->output_padding;
    p.groups = pc->groups;
    p.dilation = pc->dilation;
    return p;
}

int main(int argc, char **argv) {
    /* usage: test_cpu_ops [n_random [quick]]; quick leaves out the suite and medium cases */
    int n_random = argc > 1 ? atoi(argv[1]) : 300;
    int quick = argc > 2 && strcmp(argv[2], "quick") == 0;

    /* 1. every edge case of tests/problems.json */
    for (int i = 0; i < n_edge_cases; i++) {
        convt1d_params p = from_case(&edge_cases[i]);
        run_all_dtypes(edge_cases[i].name, &p, edge_cases[i].bias);
    }
    /* 2. the suite entries small enough for the brute-force reference */
    int n_suite_run = 0;
    for (int i = 0; i < n_suite_cases; i++) {
        const problem_case *pc = &suite_cases[i];
        double macs = (double)pc->N * pc->Cin * pc->L * pc->K * (pc->Cout / pc->groups);
        if (macs > 2e7 || quick) continue;
        convt1d_params p = from_case(pc);
        run_all_dtypes(pc->name, &p, pc->bias);
        n_suite_run++;
    }
    /* 3. medium cases crossing the blocking sizes: more than 256 reduction rows, more than one
     * length block, channel blocks, output-column blocks, several reduction splits, phases with
     * no tap, a reduced length block for many output channels. */
    {
        static const problem_case medium[] = {
            {"medium_s2_d2_many_channels", 2, 100, 260, 3, 300, 2, 1, 0, 1, 2, 1},
            {"medium_s3_d2_k5", 3, 70, 40, 5, 700, 3, 2, 1, 1, 2, 1},
            {"medium_s7_gaps_grouped", 2, 24, 36, 2, 300, 7, 3, 4, 2, 3, 0},
            {"medium_k1_s1_long", 2, 40, 30, 1, 1500, 1, 0, 0, 1, 1, 1},
            {"medium_depthwise_s2", 3, 16, 16, 4, 900, 2, 1, 1, 16, 1, 1},
            {"medium_outpad_dilation", 2, 13, 17, 6, 260, 4, 9, 4, 1, 5, 1},
            {"medium_long_reduction", 3, 4, 6, 3, 4000, 1, 1, 0, 1, 1, 1},
            {"medium_many_in_channels", 1, 270, 20, 2, 300, 3, 0, 0, 1, 1, 0},
            {"medium_many_weight_columns", 1, 8, 120, 9, 200, 3, 4, 2, 1, 1, 1},
        };
        for (size_t i = 0; i < (quick ? 0 : sizeof medium / sizeof medium[0]); i++) {
            convt1d_params p = from_case(&medium[i]);
            run_all_dtypes(medium[i].name, &p, medium[i].bias);
        }
    }
    /* 4. seeded random configurations satisfying the rules */
    int made = 0;
    while (made < n_random) {
        convt1d_params p;
        /* one in six is large enough for the library to use several threads */
        int large = rng_int(0, 5) == 0;
        p.groups = rng_int(1, 4);
        p.in_channels = p.groups * rng_int(1, large ? 16 : 6);
        p.out_channels = p.groups * rng_int(1, large ? 16 : 6);
        p.batch = rng_int(0, 9) == 0 ? 0 : rng_int(1, 3);
        p.kernel_size = rng_int(1, 7);
        p.stride = rng_int(1, 5);
        p.dilation = rng_int(1, 4);
        p.in_length = large ? rng_int(100, 700) : rng_int(1, 40);
        p.padding = rng_int(0, p.dilation * (p.kernel_size - 1) + 2);
        int64_t mx = p.stride > p.dilation ? p.stride : p.dilation;
        p.output_padding = rng_int(0, mx - 1);
        int64_t lout;
        if (convt1d_validate(&p, &lout) != CONVT1D_SUCCESS) continue; /* output too short: draw again */
        char label[64];
        snprintf(label, sizeof label, "random#%d", made);
        run_all_dtypes(label, &p, (int)rng_int(0, 1));
        made++;
    }

    printf("test_cpu_ops: %d configurations (%d edge, %d suite, %d medium, %d random) x 4 dtypes x 4 ops, "
           "%ld calls, %ld checks, %ld failures\n",
           n_cases, n_edge_cases, n_suite_run, n_cases - n_edge_cases - n_suite_run - made, made, n_calls, n_checks,
           n_failures);
    printf("worst error / tolerance: f32 %.3g, f16 %.3g, bf16 %.3g, f64 %.3g\n", worst_ratio[CONVT1D_F32],
           worst_ratio[CONVT1D_F16], worst_ratio[CONVT1D_BF16], worst_ratio[CONVT1D_F64]);
    return n_failures ? 1 : 0;
}
