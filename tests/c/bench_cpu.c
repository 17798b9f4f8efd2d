/* Times the CPU entry points (not a test). usage:
 *   bench_cpu [N C_in C_out K L stride padding dilation groups [threads [dtype]]]
 * dtype: f32 (default), f16, bf16, f64. Prints the median of several runs and GFLOP/s counted as
 * 2 * N * C_in * (C_out / groups) * K * L_in (every tap of every input, as a dense layer does). */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "convt1d.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int64_t v[9] = {4, 128, 128, 3, 16384, 1, 0, 1, 1};
    for (int i = 0; i < 9 && i + 1 < argc; i++) v[i] = atoll(argv[i + 1]);
    int threads = argc > 10 ? atoi(argv[10]) : 0;
    convt1d_dtype dt = CONVT1D_F32;
    if (argc > 11) {
        if (!strcmp(argv[11], "f16")) dt = CONVT1D_F16;
        else if (!strcmp(argv[11], "bf16")) dt = CONVT1D_BF16;
        else if (!strcmp(argv[11], "f64")) dt = CONVT1D_F64;
    }
    convt1d_params p = convt1d_params_make(v[0], v[1], v[2], v[4], v[3]);
    p.stride = v[5], p.padding = v[6], p.dilation = v[7], p.groups = v[8];
    int64_t nx, nw, ny;
    if (convt1d_tensor_sizes(&p, &nx, &nw, &ny) != CONVT1D_SUCCESS) {
        fprintf(stderr, "bad parameters: %s\n", convt1d_last_error());
        return 1;
    }
    size_t es = convt1d_dtype_size(dt);
    unsigned char *x = malloc(nx * es), *w = malloc(nw * es), *y = malloc(ny * es), *gx = malloc(nx * es);
    unsigned char *gw = malloc(nw * es), *b = malloc(p.out_channels * es);
    if (!x || !w || !y || !gx || !gw || !b) return 2;
    /* small values in any format: 0x3c00-ish halves, floats, doubles built from a pattern */
    for (int64_t i = 0; i < nx * (int64_t)es; i++) x[i] = (unsigned char)((i * 7) % 61);
    for (int64_t i = 0; i < nw * (int64_t)es; i++) w[i] = (unsigned char)((i * 5) % 59);
    memset(b, 0, p.out_channels * es);
    if (dt == CONVT1D_F32) {
        for (int64_t i = 0; i < nx; i++) ((float *)x)[i] = (float)((i % 17) - 8) / 8;
        for (int64_t i = 0; i < nw; i++) ((float *)w)[i] = (float)((i % 13) - 6) / 16;
    } else if (dt == CONVT1D_F64) {
        for (int64_t i = 0; i < nx; i++) ((double *)x)[i] = (double)((i % 17) - 8) / 8;
        for (int64_t i = 0; i < nw; i++) ((double *)w)[i] = (double)((i % 13) - 6) / 16;
    } else {
        for (int64_t i = 0; i < nx; i++) ((uint16_t *)x)[i] = dt == CONVT1D_F16 ? 0x3000 + (i % 97) : 0x3e00 + (i % 97);
        for (int64_t i = 0; i < nw; i++) ((uint16_t *)w)[i] = dt == CONVT1D_F16 ? 0x2c00 + (i % 89) : 0x3d00 + (i % 89);
    }
    double flops = 2.0 * p.batch * p.in_channels * (p.out_channels / p.groups) * p.kernel_size * p.in_length;
    const char *names[4] = {"forward", "backward_input", "backward_weight", "backward_bias"};
    printf("N=%lld C_in=%lld C_out=%lld K=%lld L=%lld stride=%lld padding=%lld dilation=%lld groups=%lld "
           "threads=%d dtype=%s\n",
           (long long)v[0], (long long)v[1], (long long)v[2], (long long)v[3], (long long)v[4], (long long)v[5],
           (long long)v[6], (long long)v[7], (long long)v[8], threads, argc > 11 ? argv[11] : "f32");
    for (int op = 0; op < 4; op++) {
        double t[7];
        int reps = 7;
        for (int r = -1; r < reps; r++) {
            double t0 = now();
            convt1d_status st = CONVT1D_SUCCESS;
            switch (op) {
            case 0: st = convt1d_forward_cpu(&p, dt, x, w, b, y, threads); break;
            case 1: st = convt1d_backward_input_cpu(&p, dt, y, w, gx, threads); break;
            case 2: st = convt1d_backward_weight_cpu(&p, dt, y, x, gw, threads); break;
            case 3: st = convt1d_backward_bias_cpu(&p, dt, y, b, threads); break;
            }
            double t1 = now();
            if (st != CONVT1D_SUCCESS) {
                fprintf(stderr, "%s failed: %s\n", names[op], convt1d_last_error());
                return 1;
            }
            if (r >= 0) t[r] = t1 - t0;
        }
        qsort(t, reps, sizeof t[0], cmp_d);
        if (op < 3)
            printf("  %-16s %9.3f ms  %8.1f GFLOP/s\n", names[op], t[reps / 2] * 1e3, flops / t[reps / 2] * 1e-9);
        else
            printf("  %-16s %9.3f ms  %8.1f GB/s read\n", names[op], t[reps / 2] * 1e3,
                   (double)ny * es / t[reps / 2] * 1e-9);
    }
    return 0;
}
