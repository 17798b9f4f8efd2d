/* CPU check of batch folding's layout (src/cuda/fold_layout.cuh), the same inline function the CUDA code uses.
 * For random layers (batch 2-5, strides 1-8, dilations 1-4, padding 0..span+3, output_padding up to max(s, d) - 1,
 * groups 1-3, K 1-17, L 1-24, bias or not) it lays x's samples end to end as the layout says, runs the library's own
 * float64 CPU kernels on the folded layer (batch 1, padding 0), and compares with the same kernels on the layer as
 * given:
 *   y      cut out of the long output at n*seg + padding,
 *   grad_x cut out of the long grad_x (grad_y placed into a long row of zeros at those positions),
 *   grad_w of the long row,
 * each within 1e-12 of its largest element (the same products, summed in another order with exact zeros between).
 * Also: the layout is legal by its own rules (seg = Lp*s >= the full output of a sample and >= padding + L_out).
 *   test_fold [trials] [seed]        prints "N passed, M failed" */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convt1d.h"
#include "fold_layout.cuh"
#include "random_layer.h"

static int passed = 0, failed = 0;

static double *randoms(int64_t n) {
    double *a = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    for (int64_t i = 0; i < n; ++i) a[i] = unif();
    return a;
}
static double *zeros(int64_t n) { return calloc((size_t)(n > 0 ? n : 1), sizeof(double)); }

/* Largest |a - b| over n elements, relative to the largest |b| (1 where b is all zero). */
static double rel_diff(const double *a, const double *b, int64_t n) {
    double d = 0, m = 0;
    for (int64_t i = 0; i < n; ++i) {
        d = fmax(d, fabs(a[i] - b[i]));
        m = fmax(m, fabs(b[i]));
    }
    return d / (m > 0 ? m : 1);
}

static void check(int ok, const char *tag, const char *what, double err) {
    if (ok) return;
    if (failed < 20) printf("FAIL %s: %s (%.3g)\n", tag, what, err);
    ++failed;
}

static void run_one(int trial) {
    int64_t lout = 0;
    const convt1d_params p = random_layer(2, 5, 4, 24, 17, 8, &lout);
    const int64_t N = p.batch, Cin = p.in_channels, Cout = p.out_channels, L = p.in_length, K = p.kernel_size;
    const int64_t s = p.stride, pad = p.padding, cout_g = Cout / p.groups;
    const int bias = (int)pick(0, 1);
    char tag[256];
    snprintf(tag, sizeof tag, "trial %d: N=%lld Cin=%lld Cout=%lld K=%lld L=%lld s=%lld p=%lld op=%lld d=%lld g=%lld",
             trial, (long long)N, (long long)Cin, (long long)Cout, (long long)K, (long long)L, (long long)s,
             (long long)pad, (long long)p.output_padding, (long long)p.dilation, (long long)p.groups);

    convt1d_fold_layout f;
    const int before = failed;
    check(convt1d_fold_make_layout(&p, lout, &f), tag, "no layout for a small layer", 0);
    if (failed != before) return;
    const int64_t full = (L - 1) * s + p.dilation * (K - 1) + 1, Lf = f.folded_length, Lx = f.folded.in_length;
    check(f.Lp >= L && f.seg == f.Lp * s && f.seg >= full && f.seg >= pad + lout && Lx == N * f.Lp, tag,
          "layout rules", 0);

    const int64_t nx = N * Cin * L, ny = N * Cout * lout, nw = Cin * cout_g * K;
    double *x = randoms(nx), *w = randoms(nw), *b = bias ? randoms(Cout) : NULL, *gy = randoms(ny);
    double *y = zeros(ny), *gx = zeros(nx), *gw = zeros(nw);
    double *xs = zeros(Cin * Lx), *ys = zeros(Cout * Lf), *gys = zeros(Cout * Lf), *gxs = zeros(Cin * Lx);
    double *y_cut = zeros(ny), *gx_cut = zeros(nx), *gw_f = zeros(nw);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < Cin; ++c) memcpy(xs + c * Lx + n * f.Lp, x + (n * Cin + c) * L, (size_t)L * sizeof(double));
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < Cout; ++c)
            memcpy(gys + c * Lf + n * f.seg + pad, gy + (n * Cout + c) * lout, (size_t)lout * sizeof(double));

    int ok = convt1d_forward_cpu(&p, CONVT1D_F64, x, w, b, y, 1) == CONVT1D_SUCCESS &&
             convt1d_forward_cpu(&f.folded, CONVT1D_F64, xs, w, b, ys, 1) == CONVT1D_SUCCESS &&
             convt1d_backward_input_cpu(&p, CONVT1D_F64, gy, w, gx, 1) == CONVT1D_SUCCESS &&
             convt1d_backward_input_cpu(&f.folded, CONVT1D_F64, gys, w, gxs, 1) == CONVT1D_SUCCESS &&
             convt1d_backward_weight_cpu(&p, CONVT1D_F64, gy, x, gw, 1) == CONVT1D_SUCCESS &&
             convt1d_backward_weight_cpu(&f.folded, CONVT1D_F64, gys, xs, gw_f, 1) == CONVT1D_SUCCESS;
    check(ok, tag, convt1d_last_error(), 0);
    if (ok) {
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < Cout; ++c)
                memcpy(y_cut + (n * Cout + c) * lout, ys + c * Lf + n * f.seg + pad, (size_t)lout * sizeof(double));
        for (int64_t n = 0; n < N; ++n)
            for (int64_t c = 0; c < Cin; ++c)
                memcpy(gx_cut + (n * Cin + c) * L, gxs + c * Lx + n * f.Lp, (size_t)L * sizeof(double));
        double e;
        e = rel_diff(y_cut, y, ny);
        check(e <= 1e-12, tag, "y cut out of the folded output", e);
        e = rel_diff(gx_cut, gx, nx);
        check(e <= 1e-12, tag, "grad_x cut out of the folded grad_x", e);
        e = rel_diff(gw_f, gw, nw);
        check(e <= 1e-12, tag, "grad_w of the folded row", e);
    }
    if (failed == before) ++passed;
    free(x), free(w), free(b), free(gy), free(y), free(gx), free(gw), free(xs), free(ys), free(gys), free(gxs);
    free(y_cut), free(gx_cut), free(gw_f);
}

int main(int argc, char **argv) {
    const int trials = argc > 1 ? atoi(argv[1]) : 3000;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 50;
    for (int t = 0; t < trials; ++t) run_one(t);
    /* The one case the padding rule alone would miss: output_padding past the padding with K 1 (the folded output
     * must reach the last sample's bias-only columns). */
    convt1d_params p = convt1d_params_make(3, 2, 2, 9, 1);
    p.stride = 3;
    p.output_padding = 2;
    int64_t lout = 0;
    convt1d_fold_layout f;
    const int ok = convt1d_output_length(&p, &lout) == CONVT1D_SUCCESS && convt1d_fold_make_layout(&p, lout, &f) &&
                   (f.Lp - p.in_length) * p.stride >= p.output_padding && 2 * f.seg + lout <= f.folded_length;
    check(ok, "K 1, stride 3, output_padding 2", "last sample inside the folded output", 0);
    passed += ok;
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
