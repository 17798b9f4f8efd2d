/* Packed GEMM kernels for the CPU back end, built for several instruction sets and chosen at run
 * time, so the library itself needs no -march flag:
 *   avx512  (x86-64 with AVX-512F): 6 x 32 float / 6 x 16 double tiles in zmm registers
 *   avx2    (x86-64 with AVX2 and FMA): 6 x 16 / 6 x 8 tiles in ymm registers
 *   generic (any target): the avx2 layout in portable GNU C vectors
 * The tile width only changes the packing layout, not the order in which any output element is
 * summed; results differ between kernels only by the rounding of fused multiply-adds. */
#include <stdlib.h>
#include <string.h>

#include "cpu_internal.h"

/* GNU C vector types (gcc and clang). The _u variants may point anywhere a float/double may. */
typedef float v8f __attribute__((vector_size(32)));
typedef double v4d __attribute__((vector_size(32)));
typedef float v8f_u __attribute__((vector_size(32), aligned(4), may_alias));
typedef double v4d_u __attribute__((vector_size(32), aligned(8), may_alias));

#define VF v8f
#define VFU v8f_u
#define VFL 8
#define VD v4d
#define VDU v4d_u
#define VDL 4

#define GEMM_ATTR
#define GEMM_SFX _generic
#include "cpu_gemm_tmpl.h"
#undef GEMM_ATTR
#undef GEMM_SFX

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define CPU_HAVE_X86 1
#define GEMM_ATTR __attribute__((target("avx2,fma")))
#define GEMM_SFX _avx2
#include "cpu_gemm_tmpl.h"
#undef GEMM_ATTR
#undef GEMM_SFX

#undef VF
#undef VFU
#undef VFL
#undef VD
#undef VDU
#undef VDL
typedef float v16f __attribute__((vector_size(64)));
typedef double v8d __attribute__((vector_size(64)));
typedef float v16f_u __attribute__((vector_size(64), aligned(4), may_alias));
typedef double v8d_u __attribute__((vector_size(64), aligned(8), may_alias));
#define VF v16f
#define VFU v16f_u
#define VFL 16
#define VD v8d
#define VDU v8d_u
#define VDL 8
#define GEMM_ATTR __attribute__((target("avx512f,avx2,fma")))
#define GEMM_SFX _avx512
#include "cpu_gemm_tmpl.h"
#undef GEMM_ATTR
#undef GEMM_SFX
#endif

static const cpu_gemm_table table_generic = {gemm_f32_generic, gemm_f32d_generic, gemm_f64_generic, 16, 8,
                                             "generic"};
#ifdef CPU_HAVE_X86
static const cpu_gemm_table table_avx2 = {gemm_f32_avx2, gemm_f32d_avx2, gemm_f64_avx2, 16, 8, "avx2"};
static const cpu_gemm_table table_avx512 = {gemm_f32_avx512, gemm_f32d_avx512, gemm_f64_avx512, 32, 16,
                                            "avx512"};
#endif

/* CONVT1D_CPU_KERNEL=generic|avx2|avx512 in the environment picks a kernel family (when the
 * processor has it); the tests use it to cover each one. */
const cpu_gemm_table *cpu_gemm_select(void) {
    const char *want = getenv("CONVT1D_CPU_KERNEL");
    if (want && strcmp(want, "generic") == 0) return &table_generic;
#ifdef CPU_HAVE_X86
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    int avx512 = avx2 && __builtin_cpu_supports("avx512f");
    if (want && strcmp(want, "avx2") == 0 && avx2) return &table_avx2;
    if (avx512) return &table_avx512;
    if (avx2) return &table_avx2;
#endif
    return &table_generic;
}
