/* Random layers for the C checks of index maps (test_bwd_planes.c, test_fold.c): a splitmix64 stream, uniform picks,
 * and valid layers drawn from given ranges (groups 2-3 one time in four, dilation 1-4, padding 0..span+3,
 * output_padding below max(stride, dilation)). Header only: each test seeds rng_state itself. */
#ifndef CONVT1D_TEST_RANDOM_LAYER_H
#define CONVT1D_TEST_RANDOM_LAYER_H

#include <stdint.h>

#include "convt1d.h"

static uint64_t rng_state;
static uint64_t next_u64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static int64_t pick(int64_t lo, int64_t hi) { return lo + (int64_t)(next_u64() % (uint64_t)(hi - lo + 1)); }
static double unif(void) { return (double)(next_u64() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

/* A valid layer: batch in [batch_lo, batch_hi], channels per group 1..ch_hi, L 1..L_hi, K 1..K_hi, stride 1..s_hi;
 * its output length in *lout. */
static convt1d_params random_layer(int64_t batch_lo, int64_t batch_hi, int64_t ch_hi, int64_t L_hi, int64_t K_hi,
                                   int64_t s_hi, int64_t *lout) {
    for (;;) {
        const int64_t g = pick(0, 3) == 0 ? pick(2, 3) : 1;
        const int64_t n = pick(batch_lo, batch_hi), cin = g * pick(1, ch_hi), cout = g * pick(1, ch_hi);
        const int64_t L = pick(1, L_hi), K = pick(1, K_hi);
        convt1d_params p = convt1d_params_make(n, cin, cout, L, K);
        p.groups = g;
        p.stride = pick(1, s_hi);
        p.dilation = pick(1, 4);
        p.padding = pick(0, p.dilation * (p.kernel_size - 1) + 3);
        p.output_padding = pick(0, (p.stride > p.dilation ? p.stride : p.dilation) - 1);
        if (convt1d_output_length(&p, lout) == CONVT1D_SUCCESS) return p;
    }
}

#endif
