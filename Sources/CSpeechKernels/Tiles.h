// Internal to CSpeechKernels: the tile functions each instruction path
// provides to the common driver in QuantizedGemm.c.
#ifndef CSPEECHKERNELS_TILES_H
#define CSPEECHKERNELS_TILES_H
#include <stddef.h>
#include <stdint.h>

/// Rows of a tile a path computes at most, and its 16-row blocks at most.
/// The accumulator buffer a tile fills is `[mr][SK_TILE_STRIDE]` int32.
#define SK_TILE_STRIDE 32

/// Computes `out[i * SK_TILE_STRIDE + j] = Σ_k a[i * a_stride + k] · w[j, k]`
/// for `mr` activation rows and `nb` consecutive packed blocks of 16 weight
/// rows (`block_bytes` apart), over `groups` groups of 4 inputs.
typedef void (*sk_tile_fn)(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                           int nb, int groups, int32_t *out);

/// Portable tile: up to 8 rows, 2 blocks.
void sk_tile_scalar(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                    int nb, int groups, int32_t *out);

#if defined(__x86_64__) || defined(__i386__)
/// AVX2 tile: up to 4 rows, 1 block (16 accumulators of 16 registers: 8 used).
void sk_tile_avx2(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                  int nb, int groups, int32_t *out);
/// AVX-512 VNNI tile: up to 8 rows, 2 blocks (16 of 32 registers accumulate).
void sk_tile_vnni(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                  int nb, int groups, int32_t *out);

/// Rows the fused VNNI tile of the blocked form computes at most (2 blocks of 16 outputs).
#define SK_BLOCKED_VNNI_ROWS 6

/// The blocked form's VNNI tile, fused: `out[i * SK_TILE_STRIDE + j]` = the
/// float sum over input blocks of `sk_gemm_q8` (no bias) for `mr` rows of
/// `a` (a+128, `a_stride` bytes apart, scales `ascales[i * blocks + b]`)
/// and `nb` 16-row weight blocks `block_bytes` apart whose scales and sums
/// start at `wscales` / `wsums` (`meta_stride` apart).
void sk_blocked_tile_vnni(int mr, const int8_t *a, int a_stride, const float *ascales, int blocks,
                          const int8_t *w, size_t block_bytes, const float *wscales, const int32_t *wsums,
                          size_t meta_stride, int nb, float *out);
#endif

/// Symmetric quantization of one value with `inverse` = 127 / max|x|:
/// clamped to [-127, 127], rounded half to even (the same arithmetic in
/// every build, so every path sees the same bytes).
static inline int quantize(float value, float inverse) {
    const float scaled = value * inverse;
    const float clamped = scaled > 127.0f ? 127.0f : (scaled < -127.0f ? -127.0f : scaled);
    // Adding and removing 1.5·2^23 rounds to the nearest integer, ties to
    // even, in plain arithmetic (rintf is a libm call on baseline x86-64).
    const float magic = 12582912.0f;
    return (int)((clamped + magic) - magic);
}

static inline float maximum_magnitude(const float *x, int count) {
    float m = 0;
    for (int k = 0; k < count; k++) {
        const float a = __builtin_fabsf(x[k]);
        m = a > m ? a : m;
    }
    return m;
}

/// Byte offset of weight (row, k) in the packed layout.
static inline size_t packed_offset(int row, int k, int padded_in) {
    return (size_t)(row / 16) * 16 * padded_in + (size_t)(k / 4) * 64 + (row % 16) * 4 + k % 4;
}

#endif
