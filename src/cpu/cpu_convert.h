/* Exact conversions between the 16-bit storage formats and float32 (CPU back end).
 *
 * half -> float and bfloat16 -> float are exact (subnormals, infinities and NaNs included) and use
 * integer arithmetic only, so they do not depend on the FTZ/DAZ state of the calling thread.
 * float -> half and float -> bfloat16 round to nearest, ties to even; overflow gives infinity and
 * a NaN stays a (quiet) NaN. */
#ifndef CONVT1D_CPU_CONVERT_H
#define CONVT1D_CPU_CONVERT_H

#include <stdint.h>
#include <string.h>

static inline uint32_t cvt_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline float cvt_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float cvt_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1fu) return cvt_bits_f32(sign | 0x7f800000u | (man << 13)); /* inf / nan */
    if (exp == 0) {
        /* zero or subnormal: man * 2^-24, exact in float (and a normal float). */
        float v = (float)man * 0x1p-24f;
        return cvt_bits_f32(sign | cvt_f32_bits(v));
    }
    return cvt_bits_f32(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint16_t cvt_f32_to_f16(float f) {
    uint32_t x = cvt_f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) /* inf or nan (nan stays nan, made quiet) */
        return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? (0x200u | ((ax >> 13) & 0x3ffu)) : 0u));
    if (ax >= 0x47800000u) return (uint16_t)(sign | 0x7c00u); /* >= 65536: infinity */
    if (ax >= 0x38800000u) {                                  /* normal half range (or rounds up to inf) */
        uint32_t a = ax - 0x38000000u;                        /* rebias exponent 127 -> 15 */
        uint32_t q = a >> 13, rem = a & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (q & 1u))) q++;
        return (uint16_t)(sign | q);
    }
    if (ax < 0x33000000u) return (uint16_t)sign; /* < 2^-25 (and 2^-25 itself ties to 0) */
    /* subnormal half: value = m * 2^(e - 150); in units of 2^-24 that is m >> (126 - e) */
    uint32_t e = ax >> 23, m = (ax & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126u - e; /* 14 .. 24 */
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u))) q++;
    return (uint16_t)(sign | q);
}

static inline float cvt_bf16_to_f32(uint16_t b) { return cvt_bits_f32((uint32_t)b << 16); }

static inline uint16_t cvt_f32_to_bf16(float f) {
    uint32_t x = cvt_f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* quiet nan */
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

#endif
