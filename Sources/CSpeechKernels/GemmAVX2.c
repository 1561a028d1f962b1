// The AVX2 tile. VPMADDUBSW multiplies unsigned by signed bytes and adds
// adjacent pairs into int16 with saturation; with a+128 as the unsigned side
// a pair can reach 2·255·127 and saturate. Feeding it |a| and sign(a)·w
// instead keeps every pair within 2·127·127 = 32258 (activations and
// weights are quantized to [-127, 127], never -128), so the result is exact.
// VPMADDWD against ones then adds the int16 pairs into int32: 4 inputs per
// output per 32-bit lane, the same grouping the packed layout uses.
#include "Tiles.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

static inline AVX2 __attribute__((always_inline)) void
tile(const int mr, const int8_t *a, int a_stride, const int8_t *w, int groups, int32_t *out) {
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i acc[4][2];
    for (int i = 0; i < mr; i++) acc[i][0] = acc[i][1] = _mm256_setzero_si256();
    for (int g = 0; g < groups; g++) {
        // Rows 0-7 and 8-15 of the block, 4 inputs each.
        const __m256i w0 = _mm256_loadu_si256((const __m256i *)(w + g * 64));
        const __m256i w1 = _mm256_loadu_si256((const __m256i *)(w + g * 64 + 32));
        for (int i = 0; i < mr; i++) {
            int32_t four;
            memcpy(&four, a + i * a_stride + g * 4, 4);
            const __m256i x = _mm256_set1_epi32(four);
            const __m256i magnitude = _mm256_abs_epi8(x);
            const __m256i p0 = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(w0, x));
            const __m256i p1 = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(w1, x));
            acc[i][0] = _mm256_add_epi32(acc[i][0], _mm256_madd_epi16(p0, ones));
            acc[i][1] = _mm256_add_epi32(acc[i][1], _mm256_madd_epi16(p1, ones));
        }
    }
    for (int i = 0; i < mr; i++) {
        _mm256_storeu_si256((__m256i *)(out + i * SK_TILE_STRIDE), acc[i][0]);
        _mm256_storeu_si256((__m256i *)(out + i * SK_TILE_STRIDE + 8), acc[i][1]);
    }
}

AVX2 void sk_tile_avx2(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                       int nb, int groups, int32_t *out) {
    // One block per call (the driver asks for at most 1); a constant row
    // count per case lets the compiler keep the accumulators in registers.
    (void)block_bytes;
    (void)nb;
    switch (mr) {
    case 1: tile(1, a, a_stride, w, groups, out); break;
    case 2: tile(2, a, a_stride, w, groups, out); break;
    case 3: tile(3, a, a_stride, w, groups, out); break;
    default: tile(4, a, a_stride, w, groups, out); break;
    }
}
#endif
