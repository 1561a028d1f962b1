#include "CFloat16.h"
#include <string.h>
#include <immintrin.h>

// Why a C target: Swift's Float16(bitPattern:) -> Float goes through a library
// call per value unless the whole module is built with -mf16c, and unsafe flags
// would stop other packages from depending on our products. A function-level
// target attribute gets the F16C instruction without any build flag.
__attribute__((target("f16c")))
static void convert_f16c(const uint8_t *src, float *dst, size_t count) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(src + 2 * i));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    }
    for (; i < count; i++) {
        uint16_t bits;
        memcpy(&bits, src + 2 * i, 2);
        __m128i h = _mm_cvtsi32_si128(bits);
        dst[i] = _mm_cvtss_f32(_mm_cvtph_ps(h));
    }
}

static float half_to_float_portable(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {
            exp = 127 - 15 + 1;
            while ((mant & 0x400) == 0) { mant <<= 1; exp--; }
            mant &= 0x3ff;
            bits = sign | (exp << 23) | (mant << 13);
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000 | (mant << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

void cf16_to_f32(const void *src, float *dst, size_t count) {
    if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx")) {
        convert_f16c((const uint8_t *)src, dst, count);
        return;
    }
    const uint8_t *bytes = (const uint8_t *)src;
    for (size_t i = 0; i < count; i++) {
        uint16_t bits;
        memcpy(&bits, bytes + 2 * i, 2);
        dst[i] = half_to_float_portable(bits);
    }
}

__attribute__((target("f16c,avx")))
static void narrow_f16c(const float *src, uint16_t *dst, size_t count) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128((__m128i *)(dst + i), h);
    }
    for (; i < count; i++) {
        __m128i h = _mm_cvtps_ph(_mm_set_ss(src[i]), _MM_FROUND_TO_NEAREST_INT);
        dst[i] = (uint16_t)_mm_cvtsi128_si32(h);
    }
}

// Round to nearest even, as F16C does: subnormals, overflow to infinity, NaN kept quiet.
static uint16_t float_to_half_portable(float f) {
    uint32_t bits;
    memcpy(&bits, &f, 4);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
    uint32_t exp = (bits >> 23) & 0xff;
    uint32_t mant = bits & 0x7fffff;
    if (exp == 0xff) return sign | 0x7c00 | (mant ? (uint16_t)(0x200 | (mant >> 13)) : 0);
    int e = (int)exp - 127 + 15;
    if (e >= 31) return sign | 0x7c00;
    if (e <= 0) {
        if (e < -10) return sign;
        mant |= 0x800000;
        int shift = 14 - e;
        uint32_t half = mant >> shift;
        uint32_t rest = mant & ((1u << shift) - 1);
        uint32_t midpoint = 1u << (shift - 1);
        if (rest > midpoint || (rest == midpoint && (half & 1))) half++;
        return sign | (uint16_t)half;
    }
    uint32_t half = ((uint32_t)e << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) half++;   // may carry into the exponent: still right
    return sign | (uint16_t)half;
}

void cf32_to_f16(const float *src, uint16_t *dst, size_t count) {
    if (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx")) {
        narrow_f16c(src, dst, count);
        return;
    }
    cf32_to_f16_portable(src, dst, count);
}

void cf32_to_f16_portable(const float *src, uint16_t *dst, size_t count) {
    for (size_t i = 0; i < count; i++) dst[i] = float_to_half_portable(src[i]);
}
