/* CPU operations computed in double, for F64 data. */
#include <stdlib.h>
#include <string.h>

#include "cpu_internal.h"

#define T double
#define NR ((int64_t)gt->nr_f64)
#define FN(name) name##_f64
#define GEMM(kc, mt, nt, A, B, C, ldc, acc) gt->f64(kc, mt, nt, A, B, C, ldc, acc)
#define GEMM_D(kc, mt, nt, A, B, C, ldc) gt->f64(kc, mt, nt, A, B, C, ldc, 1)

static inline double load_one(const void *src, convt1d_dtype dt, int64_t off) {
    (void)dt;
    return ((const double *)src)[off];
}

static void load_run(double *restrict dst, const void *src, convt1d_dtype dt, int64_t off, int64_t n,
                     int64_t stride) {
    (void)dt;
    const double *s = (const double *)src + off;
    if (stride == 1) memcpy(dst, s, (size_t)n * sizeof(double));
    else
        for (int64_t j = 0; j < n; j++) dst[j] = s[j * stride];
}

static inline const double *load_view(double *buf, const void *src, convt1d_dtype dt, int64_t off,
                                      int64_t n) {
    (void)buf, (void)dt, (void)n;
    return (const double *)src + off;
}

static void store_run(void *dst, convt1d_dtype dt, int64_t off, int64_t stride, const double *restrict src,
                      int64_t n, double add) {
    (void)dt;
    double *o = (double *)dst + off;
    if (stride == 1)
        for (int64_t j = 0; j < n; j++) o[j] = src[j] + add;
    else
        for (int64_t j = 0; j < n; j++) o[j * stride] = src[j] + add;
}

#include "cpu_ops_tmpl.h"
