/* The CPU back end's 16-bit conversions (src/cpu/cpu_convert.h) against independent references:
 *   half/bfloat16 -> float: every one of the 65536 bit patterns, decoded with ldexp;
 *   float -> half/bfloat16: round to nearest even found by a search over the sorted table of all
 *   finite values (infinity taking the place of the next power of two, as IEEE 754 overflow
 *   rounding does), for every float whose low 9 bits are a pattern from a fixed list, plus all
 *   midpoints between neighbouring values, plus infinities and NaNs. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpu_convert.h"

static long n_checks = 0, n_failures = 0;
#define CHECK(cond, ...)                                                                               \
    do {                                                                                               \
        n_checks++;                                                                                    \
        if (!(cond)) {                                                                                 \
            if (n_failures++ < 20) {                                                                   \
                fprintf(stderr, "FAIL: ");                                                             \
                fprintf(stderr, __VA_ARGS__);                                                          \
                fputc('\n', stderr);                                                                   \
            }                                                                                          \
        }                                                                                              \
    } while (0)

static double half_value(uint16_t h) { /* finite, non-negative patterns only */
    int e = (h >> 10) & 31, m = h & 1023;
    return e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
}
static double bf16_value(uint16_t b) {
    int e = (b >> 7) & 255, m = b & 127;
    return e == 0 ? ldexp(m, -133) : ldexp(128 + m, e - 134);
}

/* Non-negative values of the format in increasing order; index top is "infinity" = 2^(emax+1). */
static double half_table[0x7c01], bf16_table[0x7f81];

/* Round-to-nearest-even by search: the table index of the result for a >= 0. */
static int rne_index(const double *table, int top, double a) {
    int lo = 0, hi = top; /* table[lo] <= a < table[hi] unless a >= table[top] */
    if (a >= table[top]) return top;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (table[mid] <= a) lo = mid;
        else hi = mid;
    }
    double dl = a - table[lo], dh = table[hi] - a;
    if (dl < dh) return lo;
    if (dh < dl) return hi;
    return (lo & 1) ? hi : lo; /* tie: even last bit */
}

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void check_float(float f) {
    uint32_t u = bits(f);
    uint16_t sign16 = (uint16_t)((u >> 16) & 0x8000);
    uint16_t h = cvt_f32_to_f16(f), b = cvt_f32_to_bf16(f);
    if (isnan(f)) {
        CHECK((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0, "f16(NaN %08x) = %04x", u, h);
        CHECK((b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0, "bf16(NaN %08x) = %04x", u, b);
        return;
    }
    double a = fabs((double)f);
    uint16_t hw = (uint16_t)(sign16 | rne_index(half_table, 0x7c00, a));
    uint16_t bw = (uint16_t)(sign16 | rne_index(bf16_table, 0x7f80, a));
    CHECK(h == hw, "f16(%.9g = %08x) = %04x, want %04x", (double)f, u, h, hw);
    CHECK(b == bw, "bf16(%.9g = %08x) = %04x, want %04x", (double)f, u, b, bw);
}

int main(void) {
    for (int i = 0; i <= 0x7c00; i++) half_table[i] = i < 0x7c00 ? half_value((uint16_t)i) : 65536.0;
    for (int i = 0; i <= 0x7f80; i++) bf16_table[i] = i < 0x7f80 ? bf16_value((uint16_t)i) : ldexp(1, 128);

    /* 16 bits -> float, every pattern */
    for (uint32_t i = 0; i < 65536; i++) {
        uint16_t v = (uint16_t)i;
        float fh = cvt_f16_to_f32(v), fb = cvt_bf16_to_f32(v);
        int e = (v >> 10) & 31;
        if (e == 31 && (v & 1023)) CHECK(isnan(fh), "f16 %04x -> %g, want NaN", v, (double)fh);
        else {
            double want = e == 31 ? INFINITY : half_value(v & 0x7fff);
            if (v & 0x8000) want = -want;
            CHECK((double)fh == want && (signbit(fh) != 0) == ((v & 0x8000) != 0), "f16 %04x -> %.9g, want %.9g", v, (double)fh,
                  want);
        }
        int eb = (v >> 7) & 255;
        if (eb == 255 && (v & 127)) CHECK(isnan(fb), "bf16 %04x -> %g, want NaN", v, (double)fb);
        else {
            double want = eb == 255 ? INFINITY : bf16_value(v & 0x7fff);
            if (v & 0x8000) want = -want;
            CHECK((double)fb == want && (signbit(fb) != 0) == ((v & 0x8000) != 0), "bf16 %04x -> %.9g, want %.9g", v,
                  (double)fb, want);
        }
        /* round trip: every non-NaN value comes back exactly */
        if (!isnan(fh)) CHECK(cvt_f32_to_f16(fh) == v, "f16 round trip %04x", v);
        if (!isnan(fb)) CHECK(cvt_f32_to_bf16(fb) == v, "bf16 round trip %04x", v);
    }

    /* float -> 16 bits: every 5th value of the top 23 bits (sign, exponent and the 14 high
     * mantissa bits, so every exponent and both signs) combined with each of these low 9-bit
     * patterns: about 13 million floats, with exact values, near-ties and ties for both formats. */
    static const uint32_t low[] = {0x000, 0x001, 0x0ff, 0x100, 0x101, 0x1fe, 0x1ff, 0x155};
    for (uint32_t hi = 0; hi < (1u << 23); hi += 5)
        for (size_t k = 0; k < sizeof low / sizeof low[0]; k++) check_float(from_bits((hi << 9) | low[k]));
    /* every midpoint between neighbouring half values and between bf16 values, and its neighbours */
    for (int i = 0; i < 0x7c00; i++) {
        float m = (float)((half_table[i] + half_table[i + 1]) / 2); /* exact in float */
        check_float(m), check_float(-m);
        check_float(nextafterf(m, 0)), check_float(nextafterf(m, INFINITY));
    }
    for (int i = 0; i < 0x7f80; i++) {
        double md = (bf16_table[i] + bf16_table[i + 1]) / 2;
        if (md > 3.4e38) continue; /* beyond float */
        float m = (float)md;
        check_float(m), check_float(-m);
        check_float(nextafterf(m, 0)), check_float(nextafterf(m, INFINITY));
    }
    check_float(INFINITY), check_float(-INFINITY), check_float(NAN), check_float(-NAN);
    check_float(from_bits(0x7f800001)), check_float(from_bits(0xffc00000));
    check_float(65504.0f), check_float(65519.99f), check_float(65520.0f), check_float(1e30f);
    check_float(0x1p-25f), check_float(0x1.000002p-25f), check_float(0x1p-24f), check_float(0x1.8p-24f);
    check_float(0x1p-149f), check_float(-0.0f), check_float(3.4028235e38f);

    printf("test_convert: %ld checks, %ld failures\n", n_checks, n_failures);
    return n_failures ? 1 : 0;
}
