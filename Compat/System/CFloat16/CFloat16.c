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
