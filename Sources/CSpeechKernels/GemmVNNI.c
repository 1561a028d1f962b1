// The AVX-512 VNNI tile. VPDPBUSD multiplies 4 unsigned bytes by 4 signed
// bytes and adds all four products into an int32 lane without intermediate
// saturation, so one instruction does 64 multiply-adds: 16 weight rows × 4
// inputs against one activation group broadcast. Activations arrive as
// a+128 (sk_quantize_rows); the driver subtracts 128·Σw per weight row.
#include "Tiles.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <string.h>

#define VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))

static inline VNNI __attribute__((always_inline)) void
tile(const int mr, const int nb, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
     int groups, int32_t *out) {
    __m512i acc[8][2];
    for (int i = 0; i < mr; i++) acc[i][0] = acc[i][1] = _mm512_setzero_si512();
    for (int g = 0; g < groups; g++) {
        const __m512i w0 = _mm512_loadu_si512((const void *)(w + g * 64));
        const __m512i w1 = nb > 1 ? _mm512_loadu_si512((const void *)(w + block_bytes + g * 64))
                                  : _mm512_setzero_si512();
        for (int i = 0; i < mr; i++) {
            int32_t four;
            memcpy(&four, a + i * a_stride + g * 4, 4);
            const __m512i x = _mm512_set1_epi32(four);
            acc[i][0] = _mm512_dpbusd_epi32(acc[i][0], x, w0);
            if (nb > 1) acc[i][1] = _mm512_dpbusd_epi32(acc[i][1], x, w1);
        }
    }
    for (int i = 0; i < mr; i++) {
        _mm512_storeu_si512((void *)(out + i * SK_TILE_STRIDE), acc[i][0]);
        if (nb > 1) _mm512_storeu_si512((void *)(out + i * SK_TILE_STRIDE + 16), acc[i][1]);
    }
}

#define ROWS(nb)                                                                  \
    switch (mr) {                                                                 \
    case 1: tile(1, nb, a, a_stride, w, block_bytes, groups, out); break;         \
    case 2: tile(2, nb, a, a_stride, w, block_bytes, groups, out); break;         \
    case 3: tile(3, nb, a, a_stride, w, block_bytes, groups, out); break;         \
    case 4: tile(4, nb, a, a_stride, w, block_bytes, groups, out); break;         \
    case 5: tile(5, nb, a, a_stride, w, block_bytes, groups, out); break;         \
    case 6: tile(6, nb, a, a_stride, w, block_bytes, groups, out); break;         \
    case 7: tile(7, nb, a, a_stride, w, block_bytes, groups, out); break;         \
    default: tile(8, nb, a, a_stride, w, block_bytes, groups, out); break;        \
    }

VNNI void sk_tile_vnni(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                       int nb, int groups, int32_t *out) {
    // Constant row and block counts per case keep the accumulators in registers.
    if (nb > 1) {
        ROWS(2)
    } else {
        ROWS(1)
    }
}
#endif
