/* CPU check of the phase-plane grad_input index maps (src/cuda/bwd_input_planes.cuh), the same inline
 * functions the CUDA kernels use. For random problems (strides 1-9, dilations 1-4, padding 0..span+3,
 * groups 1-3, output_padding, K 1-17) it builds planes and W' on the host with those functions, runs
 *   (a) a naive stride-1 transposed convolution in double, and
 *   (b) the library's own convt1d_forward_cpu (f64) on convt1d_planes_fwd_params(),
 * and compares both with the definition of grad_input in double (and with convt1d_backward_input_cpu).
 * Also checks the closed forms of j0 and P against min/max over the taps, that the kept phases
 * (r0 + gcd(s, d)*m, m < s/gcd) hold every tap's phase, that the forward problem's output length is
 * L_in, and that W' holds every weight exactly once.
 *   test_bwd_planes [trials] [seed]        prints "N passed, M failed" */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bwd_input_planes.cuh"
#include "convt1d.h"
#include "random_layer.h"

static int passed = 0, failed = 0;

static double max_abs(const double *a, int64_t n) {
    double m = 0;
    for (int64_t i = 0; i < n; ++i) m = fmax(m, fabs(a[i]));
    return m;
}
static double max_diff(const double *a, const double *b, int64_t n) {
    double m = 0;
    for (int64_t i = 0; i < n; ++i) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static void run_one(int trial) {
    int64_t lout = 0;
    const convt1d_params p = random_layer(1, 3, 5, 40, 17, 9, &lout);
    const convt1d_planes_geom g = convt1d_planes_make_geom(&p, lout);
    const int64_t N = p.batch, Cin = p.in_channels, Cout = p.out_channels, L = p.in_length, K = p.kernel_size;
    const int64_t s = p.stride, d = p.dilation, pad = p.padding, G = p.groups, cin_g = Cin / G, cout_g = Cout / G;
    char tag[256];
    snprintf(tag, sizeof tag, "trial %d: N=%lld Cin=%lld Cout=%lld K=%lld L=%lld s=%lld p=%lld op=%lld d=%lld g=%lld", trial,
             (long long)N, (long long)Cin, (long long)Cout, (long long)K, (long long)L, (long long)s, (long long)pad,
             (long long)p.output_padding, (long long)d, (long long)G);
    int ok = 1;

    /* j0 and P: closed form against min/max over the taps */
    int64_t emin = INT64_MAX, emax = INT64_MIN;
    for (int64_t k = 0; k < K; ++k) {
        const int64_t e = convt1d_pl_floordiv(k * d - pad, s);
        emin = e < emin ? e : emin;
        emax = e > emax ? e : emax;
    }
    if (g.j0 != emin || g.P != emax - emin) { fprintf(stderr, "  j0/P wrong\n"); ok = 0; }
    for (int64_t k = 0; k < K; ++k) {
        const int64_t r = k * d - pad - convt1d_pl_floordiv(k * d - pad, s) * s, m = (r - g.r0) / g.gc;
        if (g.r0 < 0 || g.r0 >= g.gc || (r - g.r0) % g.gc != 0 || m < 0 || m >= g.R || convt1d_planes_phase(&g, m) != r) {
            fprintf(stderr, "  tap %lld: phase %lld is not kept\n", (long long)k, (long long)r);
            ok = 0;
        }
    }

    /* the forward problem is valid and its output length is L_in */
    const convt1d_params q = convt1d_planes_fwd_params(&g, N);
    int64_t lq = -1;
    if (convt1d_output_length(&q, &lq) != CONVT1D_SUCCESS || lq != L) {
        fprintf(stderr, "  forward problem: L_out %lld, want %lld (%s)\n", (long long)lq, (long long)L, convt1d_last_error());
        ok = 0;
    }

    const int64_t ny = N * Cout * lout, nw = Cin * cout_g * K, nx = N * Cin * L;
    const int64_t npl = N * g.C1 * g.Lg, nwp = g.C1 * cin_g * (g.P + 1);
    double *gy = malloc(sizeof(double) * ny), *w = malloc(sizeof(double) * nw);
    double *ref = calloc(nx, sizeof(double)), *naive = calloc(nx, sizeof(double)), *lib = calloc(nx, sizeof(double));
    double *libbwd = calloc(nx, sizeof(double));
    double *pl = malloc(sizeof(double) * npl), *wp = malloc(sizeof(double) * nwp);
    int *seen = calloc(nw, sizeof(int));
    for (int64_t i = 0; i < ny; ++i) gy[i] = unif();
    for (int64_t i = 0; i < nw; ++i) w[i] = unif();

    /* definition: grad_x[n, g*cin_g + ci, i] = sum_{co, k} w[.., co, k] * gy[n, g*cout_g + co, i*s + k*d - p] */
    for (int64_t n = 0; n < N; ++n)
        for (int64_t ci = 0; ci < Cin; ++ci) {
            const int64_t grp = ci / cin_g;
            for (int64_t i = 0; i < L; ++i) {
                double acc = 0;
                for (int64_t co = 0; co < cout_g; ++co)
                    for (int64_t k = 0; k < K; ++k) {
                        const int64_t o = i * s + k * d - pad;
                        if (o >= 0 && o < lout)
                            acc += w[(ci * cout_g + co) * K + k] * gy[(n * Cout + grp * cout_g + co) * lout + o];
                    }
                ref[(n * Cin + ci) * L + i] = acc;
            }
        }

    /* planes and W' from the shared index functions */
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < g.C1; ++c)
            for (int64_t j = 0; j < g.Lg; ++j) {
                const int64_t src = convt1d_planes_gather_src(&g, n, c, j);
                if (src >= ny) { fprintf(stderr, "  gather source %lld out of range\n", (long long)src); ok = 0; continue; }
                pl[convt1d_planes_index(&g, n, c, j)] = src >= 0 ? gy[src] : 0.0;
            }
    for (int64_t c = 0; c < g.C1; ++c)
        for (int64_t ci = 0; ci < cin_g; ++ci)
            for (int64_t kp = 0; kp <= g.P; ++kp) {
                const int64_t src = convt1d_planes_weight_src(&g, c, ci, kp);
                if (src >= nw) { fprintf(stderr, "  weight source %lld out of range\n", (long long)src); ok = 0; continue; }
                if (src >= 0) ++seen[src];
                wp[convt1d_planes_w_index(&g, c, ci, kp)] = src >= 0 ? w[src] : 0.0;
            }
    for (int64_t i = 0; i < nw; ++i)
        if (seen[i] != 1) { fprintf(stderr, "  weight %lld appears %d times in W'\n", (long long)i, seen[i]); ok = 0; break; }

    /* (a) naive stride-1 transposed convolution: out[n, grp*cin_g + ci, o] =
     *     sum_{c in group, kp} planes[n, c, o + P - kp] * W'[c, ci, kp] */
    const int64_t cpg = g.C1 / G;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t grp = 0; grp < G; ++grp)
            for (int64_t ci = 0; ci < cin_g; ++ci)
                for (int64_t o = 0; o < L; ++o) {
                    double acc = 0;
                    for (int64_t cc = 0; cc < cpg; ++cc)
                        for (int64_t kp = 0; kp <= g.P; ++kp) {
                            const int64_t j = o + g.P - kp, c = grp * cpg + cc;
                            if (j >= 0 && j < g.Lg)
                                acc += pl[convt1d_planes_index(&g, n, c, j)] * wp[convt1d_planes_w_index(&g, c, ci, kp)];
                        }
                    naive[(n * Cin + grp * cin_g + ci) * L + o] = acc;
                }
    /* (b) the library's forward on the built problem, and its own grad_input */
    if (convt1d_forward_cpu(&q, CONVT1D_F64, pl, wp, NULL, lib, 1) != CONVT1D_SUCCESS) {
        fprintf(stderr, "  forward_cpu: %s\n", convt1d_last_error());
        ok = 0;
    }
    if (convt1d_backward_input_cpu(&p, CONVT1D_F64, gy, w, libbwd, 1) != CONVT1D_SUCCESS) {
        fprintf(stderr, "  backward_input_cpu: %s\n", convt1d_last_error());
        ok = 0;
    }
    const double tol = 1e-12 * (1.0 + max_abs(ref, nx));
    const double ea = max_diff(naive, ref, nx), eb = max_diff(lib, ref, nx), ec = max_diff(libbwd, ref, nx);
    if (ea > tol || eb > tol || ec > tol) {
        fprintf(stderr, "  max |diff|: naive %.3g, forward_cpu %.3g, backward_input_cpu %.3g (tol %.3g)\n", ea, eb, ec, tol);
        ok = 0;
    }
    if (ok) ++passed;
    else { ++failed; fprintf(stderr, "FAIL %s (P=%lld j0=%lld)\n", tag, (long long)g.P, (long long)g.j0); }
    free(gy); free(w); free(ref); free(naive); free(lib); free(libbwd); free(pl); free(wp); free(seen);
}

int main(int argc, char **argv) {
    const int trials = argc > 1 ? atoi(argv[1]) : 2000;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 12345;
    for (int t = 0; t < trials; ++t) run_one(t);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
