/* Batch folding's layout (fold.cu), shared by the CUDA code and the CPU check tests/c/test_fold.c. Plain C.
 *
 * A batch of N short samples runs as one long row at batch 1, padding 0, output_padding 0:
 *   x:  xs[c][n*Lp + l] = x[n][c][l] for l < L, 0 for L <= l < Lp      (C_in rows of N*Lp)
 *   y:  y[n][c][j] = ys[c][n*Lp*s + p + j], j < L_out                   (C_out rows of folded_length)
 * and the gradients by the adjoints: grad_y placed at those positions of a row of zeros, grad_x cut out of the long
 * grad_x at x's positions; grad_w of the long row is grad_w of the batch.
 * Sample n's taps reach ys[n*Lp*s .. n*Lp*s + F), F = (L-1)*s + d*(K-1) + 1 (its full output before the padding's
 * crop); y keeps [p, p + L_out) of that segment, p + L_out <= F + output_padding (past F only the bias). So
 * Lp*s >= max(F, p + L_out) keeps every sample's taps off the others' kept outputs, and the folded output, (N*Lp-1)*s
 * + d*(K-1) + 1 long, holds the last sample's kept outputs when (Lp - L)*s >= output_padding - p (only output_padding
 * past the padding asks more: K 1, stride 3, output_padding 2). */
#ifndef CONVT1D_FOLD_LAYOUT_CUH
#define CONVT1D_FOLD_LAYOUT_CUH

#include <stdint.h>

#include "convt1d.h"

typedef struct {
    int64_t Lp;            /* input positions per sample in the long row: x's L, then zeros */
    int64_t seg;           /* output positions per sample: Lp * stride */
    convt1d_params folded; /* the long row's layer: batch 1, N*Lp input positions, padding 0, output_padding 0 */
    int64_t folded_length; /* its output length */
} convt1d_fold_layout;

/* The layout of a valid layer p of output length out_length; 0 where its lengths pass what the kernels index with
 * 32-bit ints (long rows to INT32_MAX/2, N*C rows to INT32_MAX). May leave convt1d_last_error set when it returns 0. */
static inline int convt1d_fold_make_layout(const convt1d_params *p, int64_t out_length, convt1d_fold_layout *f) {
    const int64_t s = p->stride, L = p->in_length;
    const int64_t full = (L - 1) * s + p->dilation * (p->kernel_size - 1) + 1;
    const int64_t need = full > p->padding + out_length ? full : p->padding + out_length;
    int64_t Lp = (need + s - 1) / s > L ? (need + s - 1) / s : L;
    if ((Lp - L) * s < p->output_padding - p->padding) Lp = L + (p->output_padding - p->padding + s - 1) / s;
    const int64_t rows = p->batch * (p->in_channels > p->out_channels ? p->in_channels : p->out_channels);
    if (Lp > INT32_MAX / 2 / p->batch || rows > INT32_MAX) return 0;
    f->Lp = Lp;
    f->seg = Lp * s;
    f->folded = *p;
    f->folded.batch = 1;
    f->folded.in_length = p->batch * Lp;
    f->folded.padding = 0;
    f->folded.output_padding = 0;
    if (convt1d_output_length(&f->folded, &f->folded_length) != CONVT1D_SUCCESS || f->folded_length > INT32_MAX / 2 ||
        (p->batch - 1) * f->seg + p->padding + out_length > f->folded_length)
        return 0;
    return 1;
}

#endif
