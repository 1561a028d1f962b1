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

#if defined(__x86_64__) || defined(__i386__)
/// AVX2 tile: up to 4 rows, 1 block (16 accumulators of 16 registers: 8 used).
void sk_tile_avx2(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                  int nb, int groups, int32_t *out);
/// AVX-512 VNNI tile: up to 8 rows, 2 blocks (16 of 32 registers accumulate).
void sk_tile_vnni(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                  int nb, int groups, int32_t *out);
#endif

#endif
