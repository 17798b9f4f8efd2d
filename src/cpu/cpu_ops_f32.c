/* CPU operations computed in float: F32 data, and F16/BF16 data converted on load (exactly) and on
 * store (round to nearest even). */
#include <stdlib.h>
#include <string.h>

#include "cpu_convert.h"
#include "cpu_internal.h"

#define T float
#define NR ((int64_t)gt->nr_f32)
#define FN(name) name##_f32
#define GEMM(kc, mt, nt, A, B, C, ldc, acc) gt->f32(kc, mt, nt, A, B, C, ldc, acc)
#define GEMM_D(kc, mt, nt, A, B, C, ldc) gt->f32d(kc, mt, nt, A, B, C, ldc)

static inline float load_one(const void *src, convt1d_dtype dt, int64_t off) {
    switch (dt) {
    case CONVT1D_F16: return cvt_f16_to_f32(((const uint16_t *)src)[off]);
    case CONVT1D_BF16: return cvt_bf16_to_f32(((const uint16_t *)src)[off]);
    default: return ((const float *)src)[off];
    }
}

static void load_run(float *restrict dst, const void *src, convt1d_dtype dt, int64_t off, int64_t n,
                     int64_t stride) {
    if (dt == CONVT1D_F16) {
        const uint16_t *s = (const uint16_t *)src + off;
        for (int64_t j = 0; j < n; j++) dst[j] = cvt_f16_to_f32(s[j * stride]);
    } else if (dt == CONVT1D_BF16) {
        const uint16_t *s = (const uint16_t *)src + off;
        for (int64_t j = 0; j < n; j++) dst[j] = cvt_bf16_to_f32(s[j * stride]);
    } else {
        const float *s = (const float *)src + off;
        if (stride == 1) memcpy(dst, s, (size_t)n * sizeof(float));
        else
            for (int64_t j = 0; j < n; j++) dst[j] = s[j * stride];
    }
}

/* A pointer to src[off .. off+n) as float: src itself for F32 data, else converted into buf. */
static inline const float *load_view(float *buf, const void *src, convt1d_dtype dt, int64_t off, int64_t n) {
    if (dt == CONVT1D_F32) return (const float *)src + off;
    load_run(buf, src, dt, off, n, 1);
    return buf;
}

static void store_run(void *dst, convt1d_dtype dt, int64_t off, int64_t stride, const float *restrict src,
                      int64_t n, float add) {
    if (dt == CONVT1D_F16) {
        uint16_t *o = (uint16_t *)dst + off;
        for (int64_t j = 0; j < n; j++) o[j * stride] = cvt_f32_to_f16(src[j] + add);
    } else if (dt == CONVT1D_BF16) {
        uint16_t *o = (uint16_t *)dst + off;
        for (int64_t j = 0; j < n; j++) o[j * stride] = cvt_f32_to_bf16(src[j] + add);
    } else {
        float *o = (float *)dst + off;
        if (stride == 1)
            for (int64_t j = 0; j < n; j++) o[j] = src[j] + add;
        else
            for (int64_t j = 0; j < n; j++) o[j * stride] = src[j] + add;
    }
}

#include "cpu_ops_tmpl.h"
