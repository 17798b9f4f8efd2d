/* The four CPU operations for one compute precision. Included by cpu_ops_f32.c (T = float, for
 * F32/F16/BF16 data) and cpu_ops_f64.c (T = double), which define before including:
 *   T              the compute type
 *   NR             the register tile width for T (from the cpu_gemm_table gt in scope)
 *   FN(name)       name##_f32 or name##_f64
 *   GEMM(...)      the cpu_gemm_table member for C (T) (+)= A*B
 *   GEMM_D(...)    C (double) += A*B
 *   load_run(dst, src, dt, off, n, stride)         dst[j] = (T)src[off + j*stride]
 *   store_run(dst, dt, off, stride, src, n, add)   dst[off + j*stride] = src[j] + add (rounded)
 *   load_one(src, dt, off)                         (T)src[off]
 *   load_view(buf, src, dt, off, n)                src[off..off+n) as T: in place, or converted into buf
 *
 * Every operation is a sequence of packed products (cpu_internal.h). Work is split into items that
 * each own a disjoint part of the output, and the reduction order inside an item depends only on
 * the problem, so results are bitwise identical for any thread count. */

#ifdef _OPENMP
#include <omp.h>
#define OMP(x) _Pragma(#x)
#else
#define OMP(x)
#endif

#define MR CPU_MR
#define KC CPU_KC

/* ------------------------------------------------------------------------------------------ */
/* Forward: polyphase. Output o = s*m + r - p, with r = (o + p) mod s the phase. A tap k feeds
 * phase r = (k*d) mod s, reading input i = m - (k*d) div s. So phase r is a dense product
 *   y[co, m] = sum_{ci, k in taps(r)} w[ci, co, k] * x[ci, m - off_k]
 * over the m of that phase: no divisibility test anywhere, and each input row is read as
 * contiguous shifted runs. Phases without taps hold only the bias. */

/* Depthwise-like problems (one input channel per group) take direct loops instead of the packed
 * products, whose register tiles would be mostly padding. */
static convt1d_status FN(direct_forward)(const cpu_problem *P, const cpu_phases *PH, convt1d_dtype dt,
                                         const void *x, const void *w, const void *bias, void *y,
                                         int threads);
static convt1d_status FN(direct_backward_input)(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                                const void *w, void *gx, int threads);
static convt1d_status FN(direct_backward_weight)(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                                 const void *x, void *gw, int threads);

convt1d_status FN(cpu_forward)(const cpu_problem *P, convt1d_dtype dt, const void *x, const void *w,
                               const void *bias, void *y, int threads) {
    const int64_t N = P->N, Cin = P->Cin, Cout = P->Cout, L = P->L, K = P->K, s = P->s, p = P->p,
                  G = P->G, Lout = P->Lout, cig = P->cig, cog = P->cog;
    if (N == 0) return CONVT1D_SUCCESS;
    const cpu_gemm_table *gt = cpu_gemm_select();

    cpu_phases PH;
    if (cpu_phases_make(&PH, K, s, P->d) != CONVT1D_SUCCESS)
        return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "forward: out of host memory");
    if (cig == 1) {
        convt1d_status st = FN(direct_forward)(P, &PH, dt, x, w, bias, y, threads);
        cpu_phases_free(&PH);
        return st;
    }
    const int64_t np = PH.np;
    const int64_t *ph_r = PH.r, *ph_first = PH.first, *tap_k = PH.k, *tap_off = PH.off;
    const int bias_only_outputs = np < s; /* some phases receive no tap */

    /* Packed weights: for group g and phase ph, rows (ci, t) in chunks of KC, tiles of MR co. */
    const int64_t mtw = cpu_ceildiv(cog, MR), rows = mtw * MR;
    T *Aw = (T *)cpu_alloc(G * cig * K * rows, sizeof(T));
    int64_t *a_off = (int64_t *)cpu_alloc(G * np, sizeof(int64_t));
    if (!Aw || !a_off) {
        cpu_phases_free(&PH); cpu_free(Aw); cpu_free(a_off);
        return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "forward: out of host memory");
    }
    {
        int64_t off = 0;
        for (int64_t g = 0; g < G; g++)
            for (int64_t ph = 0; ph < np; ph++) {
                a_off[g * np + ph] = off;
                off += cig * (ph_first[ph + 1] - ph_first[ph]) * rows;
            }
    }

    /* Output blocks: m in [mlo, mhi) covers every output o = s*m + r - p in [0, Lout). */
    int64_t MB = 256;
    if (rows * MB > 65536) MB = cpu_max(NR, (65536 / rows) / NR * NR);
    const int64_t mlo = p / s, mhi = (Lout - 1 + p) / s + 1;
    const int64_t nmb = cpu_ceildiv(mhi - mlo, MB);
    const int64_t items = N * G * nmb;
    const int nth = cpu_threads(threads, cpu_max(items, G * np), (double)N * Cin * cog * K * L);
    (void)nth; /* unused without OpenMP */
    int oom = 0;

    OMP(omp parallel num_threads(nth))
    {
        OMP(omp for schedule(dynamic, 1))
        for (int64_t gp = 0; gp < G * np; gp++) {
            const int64_t g = gp / np, ph = gp % np;
            const int64_t first = ph_first[ph], cnt = ph_first[ph + 1] - first, Kd = cig * cnt;
            T *A = Aw + a_off[gp];
            for (int64_t k0 = 0; k0 < Kd; k0 += KC) {
                const int64_t kc = cpu_min(KC, Kd - k0);
                T *Ac = A + k0 * rows;
                for (int64_t kk = 0; kk < kc; kk++) {
                    const int64_t row = k0 + kk, ci = row / cnt, k = tap_k[first + row % cnt];
                    const int64_t wbase = (g * cig + ci) * cog * K + k;
                    for (int64_t co = 0; co < rows; co++)
                        Ac[(co / MR) * kc * MR + kk * MR + co % MR] =
                            co < cog ? load_one(w, dt, wbase + co * K) : (T)0;
                }
            }
        }

        T *rowbuf = (T *)cpu_alloc(MB, sizeof(T));
        T *Bp = (T *)cpu_alloc(KC * MB, sizeof(T));
        T *acc = (T *)cpu_alloc(rows * MB, sizeof(T));
        if (!rowbuf || !Bp || !acc) {
            OMP(omp atomic write)
            oom = 1;
        }

        OMP(omp for schedule(dynamic, 1))
        for (int64_t item = 0; item < items; item++) {
            if (!rowbuf || !Bp || !acc) continue;
            const int64_t mb = item % nmb, g = (item / nmb) % G, n = item / (nmb * G);
            const int64_t m0 = mlo + mb * MB, m1 = cpu_min(m0 + MB, mhi);
            if (bias_only_outputs) {
                const int64_t oa = cpu_max(0, s * m0 - p), ob = cpu_min(Lout, s * m1 - p);
                for (int64_t co = 0; co < cog; co++) {
                    const int64_t c = g * cog + co;
                    T b = bias ? load_one(bias, dt, c) : (T)0;
                    for (int64_t j = 0; j < MB; j++) rowbuf[j] = 0;
                    for (int64_t o = oa; o < ob; o += MB)
                        store_run(y, dt, (n * Cout + c) * Lout + o, 1, rowbuf, cpu_min(MB, ob - o), b);
                }
            }
            for (int64_t ph = 0; ph < np; ph++) {
                const int64_t r = ph_r[ph], first = ph_first[ph], cnt = ph_first[ph + 1] - first;
                const int64_t ma = cpu_max(m0, cpu_ceildiv(p - r, s));
                const int64_t mb_ = cpu_min(m1, convt1d_floordiv(Lout - 1 + p - r, s) + 1);
                if (ma >= mb_) continue;
                const int64_t ncol = mb_ - ma, nt = cpu_ceildiv(ncol, NR), ldb = nt * NR;
                const int64_t Kd = cig * cnt;
                const T *A = Aw + a_off[g * np + ph];
                for (int64_t k0 = 0; k0 < Kd; k0 += KC) {
                    const int64_t kc = cpu_min(KC, Kd - k0);
                    for (int64_t kk = 0; kk < kc; kk++) {
                        const int64_t row = k0 + kk, ci = row / cnt;
                        const int64_t off = tap_off[first + row % cnt];
                        /* column j reads x[m - off] with m = ma + j: valid for j in [ja, jb) */
                        const int64_t ja = cpu_min(cpu_max(0, off - ma), ncol);
                        const int64_t jb = cpu_max(ja, cpu_min(ncol, L + off - ma));
                        for (int64_t j = 0; j < ja; j++) rowbuf[j] = 0;
                        if (jb > ja)
                            load_run(rowbuf + ja, x, dt, (n * Cin + g * cig + ci) * L + ma + ja - off,
                                     jb - ja, 1);
                        for (int64_t j = jb; j < ldb; j++) rowbuf[j] = 0;
                        for (int64_t jt = 0; jt < nt; jt++)
                            memcpy(Bp + jt * kc * NR + kk * NR, rowbuf + jt * NR, NR * sizeof(T));
                    }
                    GEMM(kc, mtw, nt, A + k0 * rows, Bp, acc, ldb, k0 > 0);
                }
                for (int64_t co = 0; co < cog; co++) {
                    const int64_t c = g * cog + co;
                    T b = bias ? load_one(bias, dt, c) : (T)0;
                    store_run(y, dt, (n * Cout + c) * Lout + s * ma + r - p, s, acc + co * ldb, ncol, b);
                }
            }
        }
        cpu_free(rowbuf);
        cpu_free(Bp);
        cpu_free(acc);
    }
    cpu_phases_free(&PH); cpu_free(Aw); cpu_free(a_off);
    if (oom) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "forward: out of host memory");
    return CONVT1D_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Backward input: a strided, dilated correlation
 *   gx[ci, i] = sum_{co, k} w[ci, co, k] * gy[co, i*s + k*d - p]
 * as a product with rows ci, reduction (co, k) (w's own layout) and columns i. */
convt1d_status FN(cpu_backward_input)(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                      const void *w, void *gx, int threads) {
    const int64_t N = P->N, Cin = P->Cin, Cout = P->Cout, L = P->L, K = P->K, s = P->s, p = P->p,
                  d = P->d, G = P->G, Lout = P->Lout, cig = P->cig, cog = P->cog;
    if (N == 0) return CONVT1D_SUCCESS;
    if (cig == 1) return FN(direct_backward_input)(P, dt, gy, w, gx, threads);
    const cpu_gemm_table *gt = cpu_gemm_select();

    const int64_t mtx = cpu_ceildiv(cig, MR), rows = mtx * MR, Kd = cog * K;
    T *Aw = (T *)cpu_alloc(G * rows * Kd, sizeof(T));
    if (!Aw) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_input: out of host memory");

    int64_t MB = 256;
    if (rows * MB > 65536) MB = cpu_max(NR, (65536 / rows) / NR * NR);
    const int64_t nib = cpu_ceildiv(L, MB), items = N * G * nib;
    const int nth = cpu_threads(threads, cpu_max(items, G * mtx), (double)N * Cin * cog * K * L);
    (void)nth; /* unused without OpenMP */
    int oom = 0;

    OMP(omp parallel num_threads(nth))
    {
        /* A for group g: chunks of KC reduction rows, tiles of MR input channels. */
        OMP(omp for schedule(dynamic, 1))
        for (int64_t gi = 0; gi < G * mtx; gi++) {
            const int64_t g = gi / mtx, it = gi % mtx;
            T *A = Aw + g * rows * Kd;
            for (int64_t k0 = 0; k0 < Kd; k0 += KC) {
                const int64_t kc = cpu_min(KC, Kd - k0);
                T *At = A + k0 * rows + it * kc * MR;
                for (int64_t ii = 0; ii < MR; ii++) {
                    const int64_t ci = it * MR + ii;
                    for (int64_t kk = 0; kk < kc; kk++)
                        At[kk * MR + ii] = ci < cig ? load_one(w, dt, (g * cig + ci) * Kd + k0 + kk) : (T)0;
                }
            }
        }

        T *rowbuf = (T *)cpu_alloc(MB, sizeof(T));
        T *Bp = (T *)cpu_alloc(KC * MB, sizeof(T));
        T *acc = (T *)cpu_alloc(rows * MB, sizeof(T));
        if (!rowbuf || !Bp || !acc) {
            OMP(omp atomic write)
            oom = 1;
        }

        OMP(omp for schedule(dynamic, 1))
        for (int64_t item = 0; item < items; item++) {
            if (!rowbuf || !Bp || !acc) continue;
            const int64_t ib = item % nib, g = (item / nib) % G, n = item / (nib * G);
            const int64_t i0 = ib * MB, ncol = cpu_min(MB, L - i0);
            const int64_t nt = cpu_ceildiv(ncol, NR), ldb = nt * NR;
            const T *A = Aw + g * rows * Kd;
            for (int64_t k0 = 0; k0 < Kd; k0 += KC) {
                const int64_t kc = cpu_min(KC, Kd - k0);
                for (int64_t kk = 0; kk < kc; kk++) {
                    const int64_t row = k0 + kk, co = row / K, k = row % K;
                    const int64_t base = k * d - p; /* column j reads gy[(i0 + j)*s + base] */
                    const int64_t ja = cpu_min(cpu_max(0, cpu_ceildiv(-base - i0 * s, s)), ncol);
                    const int64_t jb =
                        cpu_max(ja, cpu_min(ncol, convt1d_floordiv(Lout - 1 - base - i0 * s, s) + 1));
                    for (int64_t j = 0; j < ja; j++) rowbuf[j] = 0;
                    if (jb > ja)
                        load_run(rowbuf + ja, gy, dt, (n * Cout + g * cog + co) * Lout + (i0 + ja) * s + base,
                                 jb - ja, s);
                    for (int64_t j = jb; j < ldb; j++) rowbuf[j] = 0;
                    for (int64_t jt = 0; jt < nt; jt++)
                        memcpy(Bp + jt * kc * NR + kk * NR, rowbuf + jt * NR, NR * sizeof(T));
                }
                GEMM(kc, mtx, nt, A + k0 * rows, Bp, acc, ldb, k0 > 0);
            }
            for (int64_t ci = 0; ci < cig; ci++)
                store_run(gx, dt, (n * Cin + g * cig + ci) * L + i0, 1, acc + ci * ldb, ncol, (T)0);
        }
        cpu_free(rowbuf);
        cpu_free(Bp);
        cpu_free(acc);
    }
    cpu_free(Aw);
    if (oom) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_input: out of host memory");
    return CONVT1D_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Backward weight: gw[ci, (co, k)] = sum_{n, i} x[n, ci, i] * gy[n, co, i*s + k*d - p]:
 * rows ci, columns (co, k), reduction over the flattened t = n*L + i in chunks of KC. The reduction
 * is cut into S fixed splits (S depends on the problem only); each split sums its chunks in order
 * into a double partial, and the partials are added in split order at the end. */

/* rowbuf[j] = x[n, c, i] for t = t0 + j = n*L + i, j < kc. */
static void FN(gather_x)(T *rowbuf, const void *x, convt1d_dtype dt, int64_t Cin, int64_t L, int64_t c,
                         int64_t t0, int64_t kc) {
    int64_t j = 0;
    while (j < kc) {
        const int64_t t = t0 + j, n = t / L, i = t % L, len = cpu_min(L - i, kc - j);
        load_run(rowbuf + j, x, dt, (n * Cin + c) * L + i, len, 1);
        j += len;
    }
}

/* rowbuf[j] = gy[n, c, i*s + base] (zero outside [0, Lout)) for t = t0 + j = n*L + i. */
static void FN(gather_gy)(T *rowbuf, const void *gy, convt1d_dtype dt, int64_t Cout, int64_t L,
                          int64_t Lout, int64_t s, int64_t base, int64_t c, int64_t t0, int64_t kc) {
    const int64_t ilo = cpu_ceildiv(-base, s), ihi = convt1d_floordiv(Lout - 1 - base, s) + 1;
    int64_t j = 0;
    while (j < kc) {
        const int64_t t = t0 + j, n = t / L, i = t % L, len = cpu_min(L - i, kc - j);
        const int64_t a = cpu_min(cpu_max(i, ilo), i + len), b = cpu_max(a, cpu_min(i + len, ihi));
        for (int64_t q = i; q < a; q++) rowbuf[j + q - i] = 0;
        if (b > a) load_run(rowbuf + j + a - i, gy, dt, (n * Cout + c) * Lout + a * s + base, b - a, s);
        for (int64_t q = b; q < i + len; q++) rowbuf[j + q - i] = 0;
        j += len;
    }
}

convt1d_status FN(cpu_backward_weight)(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                       const void *x, void *gw, int threads) {
    const int64_t N = P->N, Cin = P->Cin, Cout = P->Cout, L = P->L, K = P->K, s = P->s, p = P->p,
                  d = P->d, G = P->G, Lout = P->Lout, cig = P->cig, cog = P->cog;
    const int64_t cols = cog * K;
    if (N == 0) {
        static const T zero = 0;
        if (gw)
            for (int64_t e = 0; e < Cin * cols; e++) store_run(gw, dt, e, 1, &zero, 1, (T)0);
        return CONVT1D_SUCCESS;
    }
    if (cig == 1) return FN(direct_backward_weight)(P, dt, gy, x, gw, threads);
    const cpu_gemm_table *gt = cpu_gemm_select();

    const int64_t colsP = cpu_roundup(cols, NR), cigP = cpu_roundup(cig, MR);
    const int64_t wsz = G * cigP * colsP; /* one split's partial, padded */
    const int64_t red = N * L, U = cpu_ceildiv(red, KC);
    int64_t S = cpu_min(U, 32);
    S = cpu_min(S, cpu_max(1, ((int64_t)1 << 24) / wsz));
    /* Channel and column blocks: whole when small enough, so each packed chunk of x and of grad_y
     * is used against as much of the other operand as possible. */
    const int64_t CIB = cig <= 256 ? cigP : 32 * MR, CB = cols <= 1024 ? colsP : (512 / NR) * NR;
    const int64_t ncib = cpu_ceildiv(cig, CIB), ncb = cpu_ceildiv(cols, CB);
    const int64_t items = G * S * ncib * ncb;

    double *part = (double *)cpu_alloc(S * wsz, sizeof(double));
    if (!part) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_weight: out of host memory");
    const int nth = cpu_threads(threads, cpu_max(items, G * cig), (double)N * Cin * cog * K * L);
    (void)nth; /* unused without OpenMP */
    int oom = 0;

    OMP(omp parallel num_threads(nth))
    {
        T *rowbuf = (T *)cpu_alloc(KC, sizeof(T));
        T *Ap = (T *)cpu_alloc(KC * CIB, sizeof(T));
        T *Bp = (T *)cpu_alloc(KC * CB, sizeof(T));
        if (!rowbuf || !Ap || !Bp) {
            OMP(omp atomic write)
            oom = 1;
        }

        OMP(omp for schedule(dynamic, 1))
        for (int64_t item = 0; item < items; item++) {
            if (!rowbuf || !Ap || !Bp) continue;
            const int64_t cb = item % ncb, cib = (item / ncb) % ncib, sp = (item / (ncb * ncib)) % S,
                          g = item / (ncb * ncib * S);
            const int64_t c0 = cib * CIB, c1 = cpu_min(cig, c0 + CIB), mt = cpu_ceildiv(c1 - c0, MR);
            const int64_t q0 = cb * CB, q1 = cpu_min(cols, q0 + CB), nt = cpu_ceildiv(q1 - q0, NR);
            double *C = part + sp * wsz + g * cigP * colsP + c0 * colsP + q0;
            for (int64_t i = 0; i < mt * MR; i++)
                for (int64_t j = 0; j < nt * NR; j++) C[i * colsP + j] = 0;
            const int64_t u0 = U * sp / S, u1 = U * (sp + 1) / S;
            for (int64_t u = u0; u < u1; u++) {
                const int64_t t0 = u * KC, kc = cpu_min(KC, red - t0);
                for (int64_t ii = 0; ii < mt * MR; ii++) {
                    T *dst = Ap + (ii / MR) * kc * MR + ii % MR;
                    if (c0 + ii < c1) {
                        FN(gather_x)(rowbuf, x, dt, Cin, L, g * cig + c0 + ii, t0, kc);
                        for (int64_t kk = 0; kk < kc; kk++) dst[kk * MR] = rowbuf[kk];
                    } else {
                        for (int64_t kk = 0; kk < kc; kk++) dst[kk * MR] = 0;
                    }
                }
                for (int64_t jj = 0; jj < nt * NR; jj++) {
                    T *dst = Bp + (jj / NR) * kc * NR + jj % NR;
                    const int64_t q = q0 + jj;
                    if (q < q1) {
                        const int64_t co = q / K, k = q % K;
                        FN(gather_gy)(rowbuf, gy, dt, Cout, L, Lout, s, k * d - p, g * cog + co, t0, kc);
                        for (int64_t kk = 0; kk < kc; kk++) dst[kk * NR] = rowbuf[kk];
                    } else {
                        for (int64_t kk = 0; kk < kc; kk++) dst[kk * NR] = 0;
                    }
                }
                GEMM_D(kc, mt, nt, Ap, Bp, C, colsP);
            }
        }
        cpu_free(rowbuf);
        cpu_free(Ap);
        cpu_free(Bp);

        /* Sum the splits in order and store. */
        T *out = (T *)cpu_alloc(cols, sizeof(T));
        if (!out) {
            OMP(omp atomic write)
            oom = 1;
        }
        OMP(omp for schedule(static))
        for (int64_t gc = 0; gc < G * cig; gc++) {
            if (!out) continue;
            const int64_t g = gc / cig, ci = gc % cig;
            const double *src = part + g * cigP * colsP + ci * colsP;
            for (int64_t q = 0; q < cols; q++) {
                double v = 0;
                for (int64_t sp = 0; sp < S; sp++) v += src[sp * wsz + q];
                out[q] = (T)v;
            }
            store_run(gw, dt, gc * cols, 1, out, cols, (T)0);
        }
        cpu_free(out);
    }
    cpu_free(part);
    if (oom) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_weight: out of host memory");
    return CONVT1D_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Backward bias: gb[c] = sum_{n, o} gy[n, c, o], in double, over fixed blocks of o summed in order. */
convt1d_status FN(cpu_backward_bias)(const cpu_problem *P, convt1d_dtype dt, const void *gy, void *gb,
                                     int threads) {
    const int64_t N = P->N, Cout = P->Cout, Lout = P->Lout;
    if (N == 0) {
        static const T zero = 0;
        if (gb)
            for (int64_t c = 0; c < Cout; c++) store_run(gb, dt, c, 1, &zero, 1, (T)0);
        return CONVT1D_SUCCESS;
    }
    const int64_t OB = 8192, nob = cpu_ceildiv(Lout, OB), items = Cout * N * nob;
    double *part = (double *)cpu_alloc(items, sizeof(double));
    if (!part) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_bias: out of host memory");
    const int nth = cpu_threads(threads, items, (double)N * Cout * Lout);
    (void)nth; /* unused without OpenMP */
    int oom = 0;
    OMP(omp parallel num_threads(nth))
    {
        T *buf = (T *)cpu_alloc(OB, sizeof(T));
        if (!buf) {
            OMP(omp atomic write)
            oom = 1;
        }
        OMP(omp for schedule(static))
        for (int64_t item = 0; item < items; item++) { /* item = (c*N + n)*nob + ob */
            if (!buf) continue;
            const int64_t ob = item % nob, n = (item / nob) % N, c = item / (nob * N);
            const int64_t o0 = ob * OB, len = cpu_min(OB, Lout - o0);
            load_run(buf, gy, dt, (n * Cout + c) * Lout + o0, len, 1);
            double a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            int64_t j = 0;
            for (; j + 8 <= len; j += 8)
                for (int q = 0; q < 8; q++) a[q] += (double)buf[j + q];
            for (; j < len; j++) a[j % 8] += (double)buf[j];
            part[item] = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
        }
        cpu_free(buf);
    }
    if (!oom)
        for (int64_t c = 0; c < Cout; c++) {
            double v = 0;
            for (int64_t e = 0; e < N * nob; e++) v += part[c * N * nob + e];
            T t = (T)v;
            store_run(gb, dt, c, 1, &t, 1, (T)0);
        }
    cpu_free(part);
    if (oom) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_bias: out of host memory");
    return CONVT1D_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Direct loops for one input channel per group (depthwise, channel multipliers). Every inner loop
 * runs over a contiguous run of the length axis. */

#define DIRECT_MB 1024

static convt1d_status FN(direct_forward)(const cpu_problem *P, const cpu_phases *PH, convt1d_dtype dt,
                                         const void *x, const void *w, const void *bias, void *y,
                                         int threads) {
    const int64_t N = P->N, Cin = P->Cin, Cout = P->Cout, L = P->L, K = P->K, s = P->s, p = P->p,
                  Lout = P->Lout, cog = P->cog;
    const int64_t MB = DIRECT_MB, mlo = p / s, mhi = (Lout - 1 + p) / s + 1;
    const int64_t nmb = cpu_ceildiv(mhi - mlo, MB), items = N * Cout * nmb;
    const int bias_only_outputs = PH->np < s;
    const int nth = cpu_threads(threads, items, (double)N * Cin * cog * K * L);
    (void)nth; /* unused without OpenMP */
    int oom = 0;
    OMP(omp parallel num_threads(nth))
    {
        T *acc = (T *)cpu_alloc(MB, sizeof(T)), *buf = (T *)cpu_alloc(MB, sizeof(T));
        if (!acc || !buf) {
            OMP(omp atomic write)
            oom = 1;
        }
        OMP(omp for schedule(dynamic, 4))
        for (int64_t item = 0; item < items; item++) {
            if (!acc || !buf) continue;
            const int64_t mb = item % nmb, c = (item / nmb) % Cout, n = item / (nmb * Cout);
            const int64_t g = c / cog, co = c % cog; /* input channel g */
            const int64_t m0 = mlo + mb * MB, m1 = cpu_min(m0 + MB, mhi);
            const int64_t xoff = (n * Cin + g) * L, yoff = (n * Cout + c) * Lout;
            const T b = bias ? load_one(bias, dt, c) : (T)0;
            if (bias_only_outputs) {
                const int64_t oa = cpu_max(0, s * m0 - p), ob = cpu_min(Lout, s * m1 - p);
                for (int64_t j = 0; j < MB; j++) acc[j] = 0;
                for (int64_t o = oa; o < ob; o += MB) store_run(y, dt, yoff + o, 1, acc, cpu_min(MB, ob - o), b);
            }
            for (int64_t ph = 0; ph < PH->np; ph++) {
                const int64_t r = PH->r[ph];
                const int64_t ma = cpu_max(m0, cpu_ceildiv(p - r, s));
                const int64_t mb_ = cpu_min(m1, convt1d_floordiv(Lout - 1 + p - r, s) + 1);
                if (ma >= mb_) continue;
                const int64_t ncol = mb_ - ma;
                for (int64_t j = 0; j < ncol; j++) acc[j] = 0;
                for (int64_t t = PH->first[ph]; t < PH->first[ph + 1]; t++) {
                    const int64_t off = PH->off[t];
                    const T wk = load_one(w, dt, (g * cog + co) * K + PH->k[t]);
                    const int64_t ja = cpu_min(cpu_max(0, off - ma), ncol);
                    const int64_t jb = cpu_max(ja, cpu_min(ncol, L + off - ma));
                    if (jb <= ja) continue;
                    const T *xv = load_view(buf, x, dt, xoff + ma + ja - off, jb - ja);
                    T *a = acc + ja;
                    for (int64_t j = 0; j < jb - ja; j++) a[j] += wk * xv[j];
                }
                store_run(y, dt, yoff + s * ma + r - p, s, acc, ncol, b);
            }
        }
        cpu_free(acc);
        cpu_free(buf);
    }
    if (oom) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "forward: out of host memory");
    return CONVT1D_SUCCESS;
}

static convt1d_status FN(direct_backward_input)(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                                const void *w, void *gx, int threads) {
    const int64_t N = P->N, Cin = P->Cin, Cout = P->Cout, L = P->L, K = P->K, s = P->s, p = P->p,
                  d = P->d, Lout = P->Lout, cog = P->cog;
    const int64_t MB = DIRECT_MB, nib = cpu_ceildiv(L, MB), items = N * Cin * nib;
    const int nth = cpu_threads(threads, items, (double)N * Cin * cog * K * L);
    (void)nth; /* unused without OpenMP */
    int oom = 0;
    OMP(omp parallel num_threads(nth))
    {
        T *acc = (T *)cpu_alloc(MB, sizeof(T)), *buf = (T *)cpu_alloc(MB, sizeof(T));
        if (!acc || !buf) {
            OMP(omp atomic write)
            oom = 1;
        }
        OMP(omp for schedule(dynamic, 4))
        for (int64_t item = 0; item < items; item++) {
            if (!acc || !buf) continue;
            const int64_t ib = item % nib, g = (item / nib) % Cin, n = item / (nib * Cin);
            const int64_t i0 = ib * MB, ncol = cpu_min(MB, L - i0);
            for (int64_t j = 0; j < ncol; j++) acc[j] = 0;
            for (int64_t co = 0; co < cog; co++)
                for (int64_t k = 0; k < K; k++) {
                    const int64_t base = k * d - p; /* acc[j] reads gy[(i0 + j)*s + base] */
                    const int64_t ja = cpu_min(cpu_max(0, cpu_ceildiv(-base - i0 * s, s)), ncol);
                    const int64_t jb =
                        cpu_max(ja, cpu_min(ncol, convt1d_floordiv(Lout - 1 - base - i0 * s, s) + 1));
                    if (jb <= ja) continue;
                    const T wk = load_one(w, dt, (g * cog + co) * K + k);
                    load_run(buf, gy, dt, (n * Cout + g * cog + co) * Lout + (i0 + ja) * s + base, jb - ja, s);
                    T *a = acc + ja;
                    for (int64_t j = 0; j < jb - ja; j++) a[j] += wk * buf[j];
                }
            store_run(gx, dt, (n * Cin + g) * L + i0, 1, acc, ncol, (T)0);
        }
        cpu_free(acc);
        cpu_free(buf);
    }
    if (oom) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_input: out of host memory");
    return CONVT1D_SUCCESS;
}

/* Dot product in a fixed order: 16 interleaved partial sums, then a fixed tree. */
static T FN(dot)(const T *restrict a, const T *restrict b, int64_t n) {
    T acc[16];
    for (int q = 0; q < 16; q++) acc[q] = 0;
    int64_t j = 0;
    for (; j + 16 <= n; j += 16)
        for (int q = 0; q < 16; q++) acc[q] += a[j + q] * b[j + q];
    for (int q = 0; j < n; j++, q++) acc[q] += a[j] * b[j];
    for (int h = 8; h >= 1; h /= 2)
        for (int q = 0; q < h; q++) acc[q] += acc[q + h];
    return acc[0];
}

static convt1d_status FN(direct_backward_weight)(const cpu_problem *P, convt1d_dtype dt, const void *gy,
                                                 const void *x, void *gw, int threads) {
    const int64_t N = P->N, Cin = P->Cin, Cout = P->Cout, L = P->L, K = P->K, s = P->s, p = P->p,
                  d = P->d, Lout = P->Lout, cog = P->cog;
    const int64_t IB = DIRECT_MB, nib = cpu_ceildiv(L, IB), U = N * nib;
    const int64_t S = cpu_min(U, 16), items = Cout * S;
    double *part = (double *)cpu_alloc(S * Cout * K, sizeof(double)); /* [S][Cout][K] */
    if (!part) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_weight: out of host memory");
    const int nth = cpu_threads(threads, items, (double)N * Cin * cog * K * L);
    (void)nth; /* unused without OpenMP */
    int oom = 0;
    OMP(omp parallel num_threads(nth))
    {
        T *xb = (T *)cpu_alloc(IB, sizeof(T)), *gb = (T *)cpu_alloc(IB, sizeof(T));
        if (!xb || !gb) {
            OMP(omp atomic write)
            oom = 1;
        }
        OMP(omp for schedule(dynamic, 1))
        for (int64_t item = 0; item < items; item++) {
            if (!xb || !gb) continue;
            const int64_t sp = item % S, c = item / S, g = c / cog;
            double *pc = part + (sp * Cout + c) * K;
            for (int64_t k = 0; k < K; k++) pc[k] = 0;
            for (int64_t u = U * sp / S; u < U * (sp + 1) / S; u++) {
                const int64_t n = u / nib, i0 = (u % nib) * IB, len = cpu_min(IB, L - i0);
                const T *xv = load_view(xb, x, dt, (n * Cin + g) * L + i0, len);
                for (int64_t k = 0; k < K; k++) {
                    const int64_t base = k * d - p; /* x[i] meets gy[i*s + base] */
                    const int64_t ilo = cpu_ceildiv(-base, s), ihi = convt1d_floordiv(Lout - 1 - base, s) + 1;
                    const int64_t a = cpu_min(cpu_max(ilo, i0), i0 + len), b = cpu_max(a, cpu_min(ihi, i0 + len));
                    if (b <= a) continue;
                    load_run(gb, gy, dt, (n * Cout + c) * Lout + a * s + base, b - a, s);
                    pc[k] += (double)FN(dot)(xv + (a - i0), gb, b - a);
                }
            }
        }
        cpu_free(xb);
        cpu_free(gb);

        T *out = (T *)cpu_alloc(K, sizeof(T));
        if (!out) {
            OMP(omp atomic write)
            oom = 1;
        }
        OMP(omp for schedule(static))
        for (int64_t c = 0; c < Cout; c++) { /* gw[g][co][k] is gw[c*K + k] when C_in = groups */
            if (!out) continue;
            for (int64_t k = 0; k < K; k++) {
                double v = 0;
                for (int64_t sp = 0; sp < S; sp++) v += part[(sp * Cout + c) * K + k];
                out[k] = (T)v;
            }
            store_run(gw, dt, c * K, 1, out, K, (T)0);
        }
        cpu_free(out);
    }
    cpu_free(part);
    if (oom) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "backward_weight: out of host memory");
    return CONVT1D_SUCCESS;
}

#undef DIRECT_MB
#undef MR
#undef KC
#undef OMP
