/* Index maps of grad_input through phase planes (bwd_input_planes.cu), shared by the CUDA kernels, the
 * CPU check tests/c/test_bwd_planes.c and the CPU emulation tests/cuda/emu/emu_planes_main.cpp.
 * Plain C (no CUDA needed): under nvcc the functions are __host__ __device__.
 *
 * grad_x of a stride-s ConvTranspose1d equals ONE stride-1 ConvTranspose1d of the s phase planes of
 * grad_y with a re-indexed weight (checked in float64 by dev/python/bwd_input_phase_planes.py):
 *   e_k = floor((k*d - p) / s), r_k = (k*d - p) mod s, j0 = min_k e_k, P = max_k e_k - j0
 *   planes[n, (g, co, r), j] = gy[n, g*Cout_g + co, (j + j0)*s + r]   (0 outside [0, L_out)), j < L_in + P
 *   W'[(g, co, r), ci, P - (e_k - j0)] = w[g*Cin_g + ci, co, k]  for the one tap k (if any) with r_k = r
 *   grad_x = conv_transpose1d(planes, W', stride 1, padding P, groups G)     (length L_in exactly)
 * Only the phases a tap can reach are kept: k*d - p = -p (mod gcd(s, d)), so r_k = r0 + gc*m with
 * gc = gcd(s, d), r0 = (-p) mod gc, m < R = s / gc (KernelBench 79, s = d = 2: one phase of two; the
 * usual d = 1 layers keep all s). Plane channel c = (g*Cout_g + co)*R + m: the R planes of one grad_y
 * row are adjacent. Two taps never share a slot (same r_k and e_k means the same k*d), so W' is a pure
 * re-index: exact in every dtype. */
#ifndef CONVT1D_BWD_INPUT_PLANES_CUH
#define CONVT1D_BWD_INPUT_PLANES_CUH

#include <stdint.h>

#include "convt1d.h"

#if defined(__CUDACC__)
#define CONVT1D_PL_FN static inline __host__ __device__
#else
#define CONVT1D_PL_FN static inline
#endif

typedef struct {
    int64_t N, G, cin_g, cout_g, K, s, p, d, L_in, L_out;
    int64_t j0; /* min_k e_k = e_0 (e_k does not decrease with k) */
    int64_t P;  /* max_k e_k - j0: padding of the stride-1 problem; it has K' = P + 1 taps */
    int64_t Lg; /* plane length L_in + P */
    int64_t gc; /* gcd(s, d) */
    int64_t r0; /* (-p) mod gc: every tap's phase is r0 + gc*m */
    int64_t R;  /* phases kept per grad_y row: s / gc */
    int64_t C1; /* plane channels G * Cout_g * R */
} convt1d_planes_geom;

CONVT1D_PL_FN int64_t convt1d_pl_floordiv(int64_t a, int64_t b) {
    const int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

CONVT1D_PL_FN int64_t convt1d_pl_gcd(int64_t a, int64_t b) {
    while (b) {
        const int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Geometry of a validated problem (L_out from the core's shape function). */
CONVT1D_PL_FN convt1d_planes_geom convt1d_planes_make_geom(const convt1d_params *p, int64_t L_out) {
    convt1d_planes_geom g;
    g.N = p->batch;
    g.G = p->groups;
    g.cin_g = p->in_channels / p->groups;
    g.cout_g = p->out_channels / p->groups;
    g.K = p->kernel_size;
    g.s = p->stride;
    g.p = p->padding;
    g.d = p->dilation;
    g.L_in = p->in_length;
    g.L_out = L_out;
    g.j0 = convt1d_pl_floordiv(-g.p, g.s);
    g.P = convt1d_pl_floordiv((g.K - 1) * g.d - g.p, g.s) - g.j0;
    g.Lg = g.L_in + g.P;
    g.gc = convt1d_pl_gcd(g.s, g.d);
    g.r0 = -g.p - convt1d_pl_floordiv(-g.p, g.gc) * g.gc; /* (-p) mod gc, in [0, gc) */
    g.R = g.s / g.gc;
    g.C1 = g.G * g.cout_g * g.R;
    return g;
}

/* The stride-1 forward problem that computes grad_x for `batch` samples (its L_out is L_in). */
CONVT1D_PL_FN convt1d_params convt1d_planes_fwd_params(const convt1d_planes_geom *g, int64_t batch) {
    convt1d_params q;
    q.batch = batch;
    q.in_channels = g->C1;
    q.out_channels = g->G * g->cin_g;
    q.in_length = g->Lg;
    q.kernel_size = g->P + 1;
    q.stride = 1;
    q.padding = g->P;
    q.output_padding = 0;
    q.dilation = 1;
    q.groups = g->G;
    return q;
}

/* grad_y position read by phase r at plane position j. */
CONVT1D_PL_FN int64_t convt1d_planes_pos(const convt1d_planes_geom *g, int64_t j, int64_t r) {
    return (j + g->j0) * g->s + r;
}

/* Phase of kept plane m (< R). */
CONVT1D_PL_FN int64_t convt1d_planes_phase(const convt1d_planes_geom *g, int64_t m) { return g->r0 + g->gc * m; }

/* Flat index of planes[n, c, j] ([N, C1, Lg], n counted from the chunk's first sample). */
CONVT1D_PL_FN int64_t convt1d_planes_index(const convt1d_planes_geom *g, int64_t n, int64_t c, int64_t j) {
    return (n * g->C1 + c) * g->Lg + j;
}

/* Flat grad_y index that planes[n, c, j] copies, or -1 where the plane is zero (outside [0, L_out)). */
CONVT1D_PL_FN int64_t convt1d_planes_gather_src(const convt1d_planes_geom *g, int64_t n, int64_t c, int64_t j) {
    const int64_t gco = c / g->R, m = c - gco * g->R; /* gco = g*Cout_g + co */
    const int64_t pos = convt1d_planes_pos(g, j, convt1d_planes_phase(g, m));
    if (pos < 0 || pos >= g->L_out) return -1;
    return (n * g->G * g->cout_g + gco) * g->L_out + pos;
}

/* Flat index of W'[c, ci, kp] ([C1, Cin_g, P + 1], ConvTranspose1d's weight layout). */
CONVT1D_PL_FN int64_t convt1d_planes_w_index(const convt1d_planes_geom *g, int64_t c, int64_t ci, int64_t kp) {
    return (c * g->cin_g + ci) * (g->P + 1) + kp;
}

/* Flat index into w [G*Cin_g, Cout_g, K] that W'[c, ci, kp] copies, or -1 where W' is zero. */
CONVT1D_PL_FN int64_t convt1d_planes_weight_src(const convt1d_planes_geom *g, int64_t c, int64_t ci, int64_t kp) {
    const int64_t gco = c / g->R, r = convt1d_planes_phase(g, c - gco * g->R);
    const int64_t grp = gco / g->cout_g, co = gco - grp * g->cout_g;
    const int64_t e = g->j0 + g->P - kp;   /* the tap's e_k */
    const int64_t kd = e * g->s + r + g->p; /* k*d - p = e*s + r */
    if (kd < 0 || kd % g->d != 0) return -1;
    const int64_t k = kd / g->d;
    if (k >= g->K) return -1;
    return ((grp * g->cin_g + ci) * g->cout_g + co) * g->K + k;
}

#endif
