/* Packed GEMM kernels, compiled once per instruction set by cpu_gemm.c, which defines
 *   GEMM_ATTR  a function attribute (e.g. __attribute__((target("avx2,fma")))) or nothing
 *   GEMM_SFX   a name suffix
 *   VF, VFU    float vector type and its unaligned alias, with VFL lanes
 *   VD, VDU    double vector type and its unaligned alias, with VDL lanes
 * The register tile is CPU_MR x (2 vectors): NR = 2*VFL floats or 2*VDL doubles. See
 * cpu_internal.h for the operand layouts. */
#define NRF (2 * VFL)
#define NRD (2 * VDL)

#define GEMM_CAT_(a, b) a##b
#define GEMM_CAT(a, b) GEMM_CAT_(a, b)
#define GEMM_FN(name) GEMM_CAT(name, GEMM_SFX)

/* float: 6 x NRF tile = 12 vectors. out[i*NRF + j] = sum_kk a[kk*6 + i] * b[kk*NRF + j]. */
static inline GEMM_ATTR void GEMM_FN(uk_f32)(int64_t kc, const float *restrict a,
                                             const float *restrict b, float *restrict out) {
    VF c0a = {0}, c0b = {0}, c1a = {0}, c1b = {0}, c2a = {0}, c2b = {0};
    VF c3a = {0}, c3b = {0}, c4a = {0}, c4b = {0}, c5a = {0}, c5b = {0};
    for (int64_t kk = 0; kk < kc; kk++) {
        VF b0 = *(const VFU *)(b), b1 = *(const VFU *)(b + VFL);
        c0a += a[0] * b0; c0b += a[0] * b1;
        c1a += a[1] * b0; c1b += a[1] * b1;
        c2a += a[2] * b0; c2b += a[2] * b1;
        c3a += a[3] * b0; c3b += a[3] * b1;
        c4a += a[4] * b0; c4b += a[4] * b1;
        c5a += a[5] * b0; c5b += a[5] * b1;
        a += CPU_MR;
        b += NRF;
    }
    VFU *o = (VFU *)out;
    o[0] = c0a, o[1] = c0b, o[2] = c1a, o[3] = c1b, o[4] = c2a, o[5] = c2b;
    o[6] = c3a, o[7] = c3b, o[8] = c4a, o[9] = c4b, o[10] = c5a, o[11] = c5b;
}

/* double: 6 x NRD tile = 12 vectors. */
static inline GEMM_ATTR void GEMM_FN(uk_f64)(int64_t kc, const double *restrict a,
                                             const double *restrict b, double *restrict out) {
    VD c0a = {0}, c0b = {0}, c1a = {0}, c1b = {0}, c2a = {0}, c2b = {0};
    VD c3a = {0}, c3b = {0}, c4a = {0}, c4b = {0}, c5a = {0}, c5b = {0};
    for (int64_t kk = 0; kk < kc; kk++) {
        VD b0 = *(const VDU *)(b), b1 = *(const VDU *)(b + VDL);
        c0a += a[0] * b0; c0b += a[0] * b1;
        c1a += a[1] * b0; c1b += a[1] * b1;
        c2a += a[2] * b0; c2b += a[2] * b1;
        c3a += a[3] * b0; c3b += a[3] * b1;
        c4a += a[4] * b0; c4b += a[4] * b1;
        c5a += a[5] * b0; c5b += a[5] * b1;
        a += CPU_MR;
        b += NRD;
    }
    VDU *o = (VDU *)out;
    o[0] = c0a, o[1] = c0b, o[2] = c1a, o[3] = c1b, o[4] = c2a, o[5] = c2b;
    o[6] = c3a, o[7] = c3b, o[8] = c4a, o[9] = c4b, o[10] = c5a, o[11] = c5b;
}

/* Loop order: one B panel (kc x NR, contiguous, L1-resident) against every A tile. */
static GEMM_ATTR void GEMM_FN(gemm_f32)(int64_t kc, int64_t mt, int64_t nt, const float *A,
                                        const float *B, float *C, int64_t ldc, int accumulate) {
    float tile[CPU_MR * NRF] __attribute__((aligned(64)));
    for (int64_t jt = 0; jt < nt; jt++) {
        const float *bp = B + jt * kc * NRF;
        for (int64_t it = 0; it < mt; it++) {
            GEMM_FN(uk_f32)(kc, A + it * kc * CPU_MR, bp, tile);
            float *c = C + it * CPU_MR * ldc + jt * NRF;
            if (accumulate) {
                for (int i = 0; i < CPU_MR; i++)
                    for (int j = 0; j < NRF; j++) c[i * ldc + j] += tile[i * NRF + j];
            } else {
                for (int i = 0; i < CPU_MR; i++)
                    for (int j = 0; j < NRF; j++) c[i * ldc + j] = tile[i * NRF + j];
            }
        }
    }
}

static GEMM_ATTR void GEMM_FN(gemm_f32d)(int64_t kc, int64_t mt, int64_t nt, const float *A,
                                         const float *B, double *C, int64_t ldc) {
    float tile[CPU_MR * NRF] __attribute__((aligned(64)));
    for (int64_t jt = 0; jt < nt; jt++) {
        const float *bp = B + jt * kc * NRF;
        for (int64_t it = 0; it < mt; it++) {
            GEMM_FN(uk_f32)(kc, A + it * kc * CPU_MR, bp, tile);
            double *c = C + it * CPU_MR * ldc + jt * NRF;
            for (int i = 0; i < CPU_MR; i++)
                for (int j = 0; j < NRF; j++) c[i * ldc + j] += (double)tile[i * NRF + j];
        }
    }
}

static GEMM_ATTR void GEMM_FN(gemm_f64)(int64_t kc, int64_t mt, int64_t nt, const double *A,
                                        const double *B, double *C, int64_t ldc, int accumulate) {
    double tile[CPU_MR * NRD] __attribute__((aligned(64)));
    for (int64_t jt = 0; jt < nt; jt++) {
        const double *bp = B + jt * kc * NRD;
        for (int64_t it = 0; it < mt; it++) {
            GEMM_FN(uk_f64)(kc, A + it * kc * CPU_MR, bp, tile);
            double *c = C + it * CPU_MR * ldc + jt * NRD;
            if (accumulate) {
                for (int i = 0; i < CPU_MR; i++)
                    for (int j = 0; j < NRD; j++) c[i * ldc + j] += tile[i * NRD + j];
            } else {
                for (int i = 0; i < CPU_MR; i++)
                    for (int j = 0; j < NRD; j++) c[i * ldc + j] = tile[i * NRD + j];
            }
        }
    }
}

#undef NRF
#undef NRD
#undef GEMM_FN
#undef GEMM_CAT
#undef GEMM_CAT_
