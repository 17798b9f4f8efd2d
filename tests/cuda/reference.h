/* Shared by the CUDA self-test: problem table, random problems, data in each dtype and a brute-force
 * double-precision reference with per-element error bounds. Host-only C++. */
#pragma once
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <random>
#include <string>
#include <vector>

#include "convt1d.h"

#if defined(__CUDACC__)
#define REF_HD __host__ __device__
#else
#define REF_HD
#endif

namespace ref {

struct Config {
    std::string name;
    int64_t N, Cin, Cout, K, L, s, p, op, g, d;
    bool bias;
};

inline convt1d_params params_of(const Config &c) {
    convt1d_params p = convt1d_params_make(c.N, c.Cin, c.Cout, c.L, c.K);
    p.stride = c.s; p.padding = c.p; p.output_padding = c.op; p.dilation = c.d; p.groups = c.g;
    return p;
}

/* tests/problems.json "edge_cases", copied as a table (same names and values). */
inline std::vector<Config> edge_cases() {
    return {
        {"pointwise_k1", 2, 5, 7, 1, 9, 1, 0, 0, 1, 1, true},
        {"gaps_stride_gt_span", 2, 4, 6, 2, 7, 5, 0, 0, 1, 1, false},
        {"outpad_with_dilation", 3, 4, 4, 3, 11, 3, 1, 2, 1, 2, true},
        {"outpad_ge_stride_lt_dilation", 2, 3, 5, 3, 8, 1, 0, 2, 1, 3, false},
        {"padding_eats_output", 2, 3, 2, 5, 6, 2, 7, 0, 1, 2, false},
        {"groups_uneven_ratio", 2, 6, 9, 3, 10, 2, 1, 0, 3, 1, true},
        {"depthwise_small", 2, 8, 8, 5, 13, 3, 2, 1, 8, 1, false},
        {"channel_multiplier", 2, 4, 12, 3, 9, 2, 0, 0, 4, 1, true},
        {"length_one", 3, 5, 4, 4, 1, 2, 0, 0, 1, 1, false},
        {"empty_batch", 0, 4, 4, 3, 10, 1, 0, 0, 1, 1, false},
        {"odd_channels_long_kernel", 2, 3, 5, 31, 40, 4, 13, 0, 1, 1, true},
        {"huge_dilation", 1, 2, 3, 3, 5, 2, 3, 0, 1, 17, false},
    };
}

/* Shapes that reach every kernel variant and chunking path of the direct kernels. */
inline std::vector<Config> path_cases() {
    return {
        {"kernelbench_64_small", 16, 64, 3, 3, 128, 1, 0, 0, 1, 1, false},
        {"kernelbench_74_small", 16, 3, 64, 5, 256, 1, 0, 0, 1, 3, false},
        {"kernelbench_79_small", 16, 32, 64, 3, 128, 2, 1, 0, 1, 2, false},
        {"gemm_partial_tiles", 4, 70, 96, 4, 300, 2, 1, 0, 1, 1, true},  /* grad_w GEMM, ragged tiles */
        {"wide_channels", 2, 128, 256, 3, 700, 1, 1, 0, 1, 1, true},     /* 16 ch/thread, ci chunks */
        {"grouped_g4", 2, 64, 64, 4, 257, 2, 1, 1, 4, 1, true},
        {"long_kernel_tap_chunks", 1, 4, 64, 100, 20, 1, 0, 0, 1, 1, true},
        {"long_kernel_strided", 2, 8, 48, 97, 33, 3, 5, 2, 1, 2, false},
        {"stride_gt_length", 2, 3, 4, 2, 3, 50, 30, 0, 1, 1, true},    /* fewer phases than stride */
        {"grad_w_splits_gemm", 3, 16, 16, 4, 5000, 2, 1, 0, 1, 1, false},
        {"grad_w_splits_thin", 4, 8, 8, 4, 3000, 2, 1, 1, 8, 1, true},
        {"upsample_x8", 2, 32, 16, 16, 200, 8, 4, 0, 1, 1, true},
        {"codec_s5", 2, 24, 20, 10, 150, 5, 3, 1, 1, 1, true},
        {"coprime_dilation", 2, 6, 10, 7, 60, 6, 4, 3, 2, 4, true},   /* gcd(d, s) = 2 */
        {"bias_splits_rows", 3, 8, 5, 4, 40000, 2, 1, 1, 1, 1, true}, /* grad_b split along odd-length rows */
        {"bias_splits_vec", 2, 8, 4, 3, 65536, 1, 1, 0, 1, 1, true},  /* grad_b splits, 16-byte rows */
    };
}

/* A random valid problem, small enough for the brute-force reference. */
inline Config random_config(std::mt19937_64 &rng, int index) {
    auto pick = [&](int64_t lo, int64_t hi) { return (int64_t)std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
    for (;;) {
        Config c;
        c.name = "random_" + std::to_string(index);
        static const int64_t gs[] = {1, 1, 1, 2, 3, 4};
        c.g = gs[pick(0, 5)];
        const bool wide = pick(0, 4) == 0;
        c.Cin = c.g * (wide ? pick(9, 40) : pick(1, 8));
        c.Cout = c.g * (pick(0, 4) == 0 ? pick(9, 40) : pick(1, 8));
        c.N = pick(1, 3);
        c.K = pick(0, 5) == 0 ? pick(10, 40) : pick(1, 9);
        c.s = pick(1, 6);
        c.d = pick(0, 2) == 0 ? pick(2, 7) : 1;
        c.L = pick(1, 60);
        c.p = pick(0, c.d * (c.K - 1) + 2);
        const int64_t opmax = (c.s > c.d ? c.s : c.d) - 1;
        c.op = pick(0, 1) ? pick(0, opmax) : 0;
        c.bias = pick(0, 1) == 1;
        convt1d_params p = params_of(c);
        int64_t lout;
        if (convt1d_validate(&p, &lout) == CONVT1D_SUCCESS) return c;
    }
}

/* ------------------------------------------------------------------ dtype storage */
REF_HD inline uint16_t f32_to_f16_bits(float f) {
    /* round to nearest even, with subnormals; inputs here are finite and small */
    uint32_t x; memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    if (exp >= 31) return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10) return (uint16_t)sign;
        mant |= 0x800000u;
        const int shift = 14 - exp;
        uint32_t h = mant >> shift;
        const uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) ++h;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)exp << 10) | (mant >> 13);
    const uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
    return (uint16_t)(sign | h);
}
REF_HD inline float f16_bits_to_f32(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    int exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ffu, x;
    if (exp == 0x1f) x = sign | 0x7f800000u | (mant << 13);
    else if (exp == 0) {
        if (mant == 0) x = sign;
        else {
            exp = 1;
            while (!(mant & 0x400u)) { mant <<= 1; --exp; }
            mant &= 0x3ffu;
            x = sign | ((uint32_t)(exp - 15 + 127) << 23) | (mant << 13);
        }
    } else x = sign | ((uint32_t)(exp - 15 + 127) << 23) | (mant << 13);
    float f; memcpy(&f, &x, 4);
    return f;
}
inline uint16_t f32_to_bf16_bits(float f) {
    uint32_t x; memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}
inline float bf16_bits_to_f32(uint16_t b) {
    uint32_t x = (uint32_t)b << 16; float f; memcpy(&f, &x, 4);
    return f;
}

/* A tensor stored in the dtype's bytes, with the exact values as doubles. */
struct Tensor {
    convt1d_dtype dt;
    std::vector<unsigned char> bytes;
    std::vector<double> val;
    size_t n() const { return val.size(); }
};

inline void tensor_set(Tensor &t, size_t i, double v) {
    switch (t.dt) {
    case CONVT1D_F32: { float f = (float)v; memcpy(&t.bytes[i * 4], &f, 4); t.val[i] = f; break; }
    case CONVT1D_F64: { memcpy(&t.bytes[i * 8], &v, 8); t.val[i] = v; break; }
    case CONVT1D_F16: { uint16_t h = f32_to_f16_bits((float)v); memcpy(&t.bytes[i * 2], &h, 2); t.val[i] = f16_bits_to_f32(h); break; }
    case CONVT1D_BF16: { uint16_t h = f32_to_bf16_bits((float)v); memcpy(&t.bytes[i * 2], &h, 2); t.val[i] = bf16_bits_to_f32(h); break; }
    }
}
inline double bytes_get(convt1d_dtype dt, const unsigned char *b, size_t i) {
    switch (dt) {
    case CONVT1D_F32: { float f; memcpy(&f, b + i * 4, 4); return f; }
    case CONVT1D_F64: { double d; memcpy(&d, b + i * 8, 8); return d; }
    case CONVT1D_F16: { uint16_t h; memcpy(&h, b + i * 2, 2); return f16_bits_to_f32(h); }
    case CONVT1D_BF16: { uint16_t h; memcpy(&h, b + i * 2, 2); return bf16_bits_to_f32(h); }
    }
    return NAN;
}

inline Tensor random_tensor(convt1d_dtype dt, size_t n, std::mt19937_64 &rng) {
    Tensor t;
    t.dt = dt;
    t.bytes.assign(n * convt1d_dtype_size(dt), 0);
    t.val.assign(n, 0.0);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (size_t i = 0; i < n; ++i) tensor_set(t, i, u(rng));
    return t;
}

/* ------------------------------------------------------------------ reference */
/* Each output: its exact value, the sum of |terms| and the number of terms (for the error bound). */
struct Result {
    std::vector<double> v, abs;
    std::vector<int64_t> terms;
    void init(size_t n) { v.assign(n, 0.0); abs.assign(n, 0.0); terms.assign(n, 0); }
    void add(size_t i, double t) { v[i] += t; abs[i] += fabs(t); terms[i] += 1; }
};

struct Problem {
    Config c;
    convt1d_params p;
    int64_t Lout, cin_g, cout_g;
    size_t nx, nw, ny, nb;
};

inline Problem make_problem(const Config &c) {
    Problem P;
    P.c = c;
    P.p = params_of(c);
    convt1d_validate(&P.p, &P.Lout);
    P.cin_g = c.Cin / c.g;
    P.cout_g = c.Cout / c.g;
    P.nx = (size_t)(c.N * c.Cin * c.L);
    P.nw = (size_t)(c.Cin * P.cout_g * c.K);
    P.ny = (size_t)(c.N * c.Cout * P.Lout);
    P.nb = (size_t)c.Cout;
    return P;
}

/* Calls f(x_index, w_index, y_index) for every term of the convolution, in a fixed order. */
template <typename F> void for_each_term(const Problem &P, F f) {
    const Config &c = P.c;
    for (int64_t n = 0; n < c.N; ++n)
        for (int64_t ci = 0; ci < c.Cin; ++ci) {
            const int64_t g = ci / P.cin_g;
            for (int64_t co = 0; co < P.cout_g; ++co)
                for (int64_t k = 0; k < c.K; ++k)
                    for (int64_t i = 0; i < c.L; ++i) {
                        const int64_t o = i * c.s + k * c.d - c.p;
                        if (o < 0 || o >= P.Lout) continue;
                        f((size_t)((n * c.Cin + ci) * c.L + i), (size_t)((ci * P.cout_g + co) * c.K + k),
                          (size_t)((n * c.Cout + g * P.cout_g + co) * P.Lout + o));
                    }
        }
}

inline Result forward(const Problem &P, const Tensor &x, const Tensor &w, const Tensor *b) {
    Result r;
    r.init(P.ny);
    for_each_term(P, [&](size_t xi, size_t wi, size_t yi) { r.add(yi, x.val[xi] * w.val[wi]); });
    if (b)
        for (size_t i = 0; i < P.ny; ++i) r.add(i, b->val[(i / (size_t)P.Lout) % (size_t)P.c.Cout]);
    return r;
}
inline Result backward_input(const Problem &P, const Tensor &gy, const Tensor &w) {
    Result r;
    r.init(P.nx);
    for_each_term(P, [&](size_t xi, size_t wi, size_t yi) { r.add(xi, gy.val[yi] * w.val[wi]); });
    return r;
}
inline Result backward_weight(const Problem &P, const Tensor &gy, const Tensor &x) {
    Result r;
    r.init(P.nw);
    for_each_term(P, [&](size_t xi, size_t wi, size_t yi) { r.add(wi, gy.val[yi] * x.val[xi]); });
    return r;
}
inline Result backward_bias(const Problem &P, const Tensor &gy) {
    Result r;
    r.init(P.nb);
    for (size_t i = 0; i < P.ny; ++i) r.add((i / (size_t)P.Lout) % (size_t)P.c.Cout, gy.val[i]);
    return r;
}

/* Unit roundoff of the stored type and of the accumulator. */
inline double u_store(convt1d_dtype dt) {
    switch (dt) {
    case CONVT1D_F32: return ldexp(1.0, -24);
    case CONVT1D_F64: return ldexp(1.0, -53);
    case CONVT1D_F16: return ldexp(1.0, -11);
    case CONVT1D_BF16: return ldexp(1.0, -8);
    }
    return 1;
}
inline double u_acc(convt1d_dtype dt) { return dt == CONVT1D_F64 ? ldexp(1.0, -53) : ldexp(1.0, -24); }

inline const char *dtype_name(convt1d_dtype dt) {
    switch (dt) {
    case CONVT1D_F32: return "f32";
    case CONVT1D_F64: return "f64";
    case CONVT1D_F16: return "f16";
    case CONVT1D_BF16: return "bf16";
    }
    return "?";
}

/* Compares device output bytes against the reference. The bound is one rounding of the stored
 * result plus (8 + 4 sqrt(terms)) accumulator roundings of the sum of |terms| (any summation order);
 * u_acc_override > 0 replaces the accumulator roundoff (TF32 inputs). Returns the number of bad
 * elements and prints the first few. */
inline size_t compare(const char *what, const Result &r, convt1d_dtype dt, const unsigned char *got,
                      double u_acc_override = 0) {
    const double us = u_store(dt), ua = u_acc_override > 0 ? u_acc_override : u_acc(dt);
    const double tiny = dt == CONVT1D_F64 ? 1e-300 : dt == CONVT1D_F32 ? 1e-37 : 1e-7;
    size_t bad = 0;
    double worst = 0;
    for (size_t i = 0; i < r.v.size(); ++i) {
        const double g = bytes_get(dt, got, i);
        const double tol = us * fabs(r.v[i]) + ua * (8.0 + 4.0 * sqrt((double)r.terms[i])) * r.abs[i] + tiny;
        const double err = fabs(g - r.v[i]);
        if (!(err <= tol)) { /* NaN fails too */
            if (bad < 5)
                fprintf(stderr, "    %s[%zu]: got %.9g, expected %.9g (tolerance %.3g)\n", what, i, g, r.v[i], tol);
            ++bad;
        } else if (tol > 0 && err / tol > worst) {
            worst = err / tol;
        }
    }
    if (bad) fprintf(stderr, "    %s: %zu of %zu elements wrong\n", what, bad, r.v.size());
    return bad;
}

} // namespace ref
