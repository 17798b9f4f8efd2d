/* Internal interface of the CPU back end (src/cpu). Not part of the public API.
 *
 * Every operation is written as a packed matrix product C[M x Ncol] (+)= A[M x Kdim] * B[Kdim x Ncol]
 * whose operands are gathered ("packed") block by block from the tensors:
 *   A: tiles of CPU_MR rows, tile layout [kk][CPU_MR]        (rows past the end are zero)
 *   B: panels of NR columns, panel layout [kk][NR]          (columns past the end are zero)
 * The micro-kernel keeps a CPU_MR x NR tile of C in registers and sums over kk in order, so the
 * summation order of every output element depends only on the problem, never on the thread count
 * or the instruction set. */
#ifndef CONVT1D_CPU_INTERNAL_H
#define CONVT1D_CPU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define CPU_MR 6   /* rows of a register tile */
#define CPU_KC 256 /* reduction rows per packed block */
/* The tile width NR (columns) depends on the kernel chosen at run time (cpu_gemm_table): 16 or 32
 * floats, 8 or 16 doubles. Block sizes below are multiples of 32. */

/* C[mt*MR x nt*NR] (ldc) = or += A*B over kc reduction rows. A: mt tiles of kc*MR, B: nt panels of
 * kc*NR. */
typedef void (*cpu_gemm_f32_fn)(int64_t kc, int64_t mt, int64_t nt, const float *A, const float *B,
                                float *C, int64_t ldc, int accumulate);
/* Same product in float, added to a double C (C += A*B). */
typedef void (*cpu_gemm_f32d_fn)(int64_t kc, int64_t mt, int64_t nt, const float *A, const float *B,
                                 double *C, int64_t ldc);
typedef void (*cpu_gemm_f64_fn)(int64_t kc, int64_t mt, int64_t nt, const double *A, const double *B,
                                double *C, int64_t ldc, int accumulate);

typedef struct {
    cpu_gemm_f32_fn f32;
    cpu_gemm_f32d_fn f32d;
    cpu_gemm_f64_fn f64;
    int nr_f32, nr_f64; /* tile widths NR */
    const char *isa;
} cpu_gemm_table;

/* The fastest kernels this processor runs (AVX-512 or AVX2+FMA on x86-64, portable C otherwise). */
const cpu_gemm_table *cpu_gemm_select(void);

/* 64-byte aligned allocation of count*size bytes; NULL on overflow or failure. */
void *cpu_alloc(int64_t count, size_t size);
void cpu_free(void *ptr);

/* Threads to use: requested (<= 0: all, as omp_get_max_threads()), at most `work_items`, and at
 * most one per CPU_MIN_WORK multiply-adds of `work` (tiny calls stay on the calling thread), >= 1. */
#define CPU_MIN_WORK 65536
int cpu_threads(int requested, int64_t work_items, double work);

static inline int64_t cpu_ceildiv(int64_t a, int64_t b) { return -convt1d_floordiv(-a, b); }
static inline int64_t cpu_roundup(int64_t a, int64_t b) { return cpu_ceildiv(a, b) * b; }
static inline int64_t cpu_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t cpu_max(int64_t a, int64_t b) { return a > b ? a : b; }

/* The problem after validation, with the derived sizes. */
typedef struct {
    int64_t N, Cin, Cout, L, K, s, p, d, G, Lout, cig, cog;
} cpu_problem;

/* The polyphase view of the forward: output o = s*m + r - p is in phase r = (o + p) mod s; tap k
 * feeds phase (k*d) mod s and reads input m - off[k] with off[k] = (k*d) div s. Taps are listed
 * grouped by phase (phases by increasing r, taps by increasing k): phase j owns list entries
 * first[j] .. first[j+1]-1. Phases that no tap feeds are not listed (np < s then). */
typedef struct {
    int64_t np;     /* number of phases with at least one tap (<= min(K, s)) */
    int64_t *r;     /* [np] residue of each phase */
    int64_t *first; /* [np + 1] */
    int64_t *k;     /* [K] tap index */
    int64_t *off;   /* [K] input offset (k*d) div s */
} cpu_phases;
convt1d_status cpu_phases_make(cpu_phases *ph, int64_t K, int64_t s, int64_t d);
void cpu_phases_free(cpu_phases *ph);

/* Per-precision implementations (cpu_ops_f32.c handles F32, F16 and BF16; cpu_ops_f64.c F64). */
convt1d_status cpu_forward_f32(const cpu_problem *P, convt1d_dtype dt, const void *x, const void *w,
                               const void *bias, void *y, int threads);
convt1d_status cpu_backward_input_f32(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                      const void *w, void *gx, int threads);
convt1d_status cpu_backward_weight_f32(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                       const void *x, void *gw, int threads);
convt1d_status cpu_backward_bias_f32(const cpu_problem *P, convt1d_dtype dt, const void *gy, void *gb,
                                     int threads);
convt1d_status cpu_forward_f64(const cpu_problem *P, convt1d_dtype dt, const void *x, const void *w,
                               const void *bias, void *y, int threads);
convt1d_status cpu_backward_input_f64(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                      const void *w, void *gx, int threads);
convt1d_status cpu_backward_weight_f64(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                       const void *x, void *gw, int threads);
convt1d_status cpu_backward_bias_f64(const cpu_problem *P, convt1d_dtype dt, const void *gy, void *gb,
                                     int threads);

#endif
