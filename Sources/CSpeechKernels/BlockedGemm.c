// The blocked int8 form (ComputeType.int8Blocks): one scale per 32 inputs
// for weights and activations alike. Per-row scales (sk_gemm_s8) let one
// large activation or weight set the step for a whole row of 512-2048
// values, so the small ones round to a few levels; in blocks an outlier
// costs precision only among its 31 neighbours. The price is one float
// multiply-add per block and output instead of one per output.
#include "CSpeechKernels.h"
#include "Tiles.h"
#include <math.h>
#include <string.h>

void sk_pack_rows_blocked(const float *rows, int first, int count, int in_count,
                          int8_t *packed, float *scales, int32_t *sums) {
    const int padded = sk_blocked_in(in_count);
    const int blocks = sk_input_blocks(in_count);
    for (int i = 0; i < count; i++) {
        const float *source = rows + (size_t)i * in_count;
        const int row = first + i;
        for (int b = 0; b < blocks; b++) {
            const int start = b * SK_BLOCK_INPUTS;
            const int end = start + SK_BLOCK_INPUTS < in_count ? start + SK_BLOCK_INPUTS : in_count;
            const float magnitude = maximum_magnitude(source + start, end - start);
            const float inverse = magnitude > 0 ? 127.0f / magnitude : 0;
            int32_t sum = 0;
            for (int k = start; k < end; k++) {
                const int q = quantize(source[k], inverse);
                packed[packed_offset(row, k, padded)] = (int8_t)q;
                sum += q;
            }
            const long meta = sk_block_meta_index(row, b, blocks);
            scales[meta] = magnitude / 127.0f;
            sums[meta] = sum;
        }
    }
}

void sk_unpack_row_blocked(const int8_t *packed, const float *scales, int row, int in_count, float *out) {
    const int padded = sk_blocked_in(in_count);
    const int blocks = sk_input_blocks(in_count);
    for (int k = 0; k < in_count; k++)
        out[k] = (float)packed[packed_offset(row, k, padded)] *
                 scales[sk_block_meta_index(row, k / SK_BLOCK_INPUTS, blocks)];
}

/// One row of activations in blocks; `offset` is 128 for VNNI's unsigned form.
static inline __attribute__((always_inline)) void
quantize_row_blocked(const float *source, int in_count, int offset, int8_t *target, float *scales) {
    const int blocks = sk_input_blocks(in_count);
    for (int b = 0; b < blocks; b++) {
        const int start = b * SK_BLOCK_INPUTS;
        const int end = start + SK_BLOCK_INPUTS < in_count ? start + SK_BLOCK_INPUTS : in_count;
        const float magnitude = maximum_magnitude(source + start, end - start);
        const float inverse = magnitude > 0 ? 127.0f / magnitude : 0;
        for (int k = start; k < end; k++) target[k] = (int8_t)(uint8_t)(quantize(source[k], inverse) + offset);
        for (int k = end; k < start + SK_BLOCK_INPUTS; k++) target[k] = (int8_t)(uint8_t)offset;
        scales[b] = magnitude / 127.0f;
    }
}

static void quantize_rows_blocked_portable(const float *x, int rows, int in_count, int offset, int8_t *q,
                                           float *scales) {
    const int padded = sk_blocked_in(in_count), blocks = sk_input_blocks(in_count);
    for (int r = 0; r < rows; r++)
        quantize_row_blocked(x + (size_t)r * in_count, in_count, offset, q + (size_t)r * padded,
                             scales + (size_t)r * blocks);
}

#if defined(__x86_64__) || defined(__i386__)
/// The same C compiled for AVX2 (8-wide maxima and rounding).
__attribute__((target("avx2")))
static void quantize_rows_blocked_avx2(const float *x, int rows, int in_count, int offset, int8_t *q,
                                       float *scales) {
    const int padded = sk_blocked_in(in_count), blocks = sk_input_blocks(in_count);
    for (int r = 0; r < rows; r++)
        quantize_row_blocked(x + (size_t)r * in_count, in_count, offset, q + (size_t)r * padded,
                             scales + (size_t)r * blocks);
}
#endif

void sk_quantize_rows_blocked(sk_path path, const float *x, int rows, int in_count, int8_t *q, float *scales) {
    const int offset = path == SK_PATH_VNNI ? 128 : 0;
#if defined(__x86_64__) || defined(__i386__)
    if (path != SK_PATH_SCALAR) {
        quantize_rows_blocked_avx2(x, rows, in_count, offset, q, scales);
        return;
    }
#endif
    quantize_rows_blocked_portable(x, rows, in_count, offset, q, scales);
}

/// Scalar and AVX2: the int8 tile of sk_gemm_s8 over one input block at a
/// time, each block's exact int32 sums scaled and added in float here.
static void blocked_tile_generic(sk_tile_fn tile, int mr, const int8_t *a, int a_stride, const float *ascales,
                                 int blocks, const int8_t *w, size_t block_bytes, const float *wscales,
                                 const int32_t *wsums, size_t meta_stride, int nb, float *out) {
    int32_t acc[8 * SK_TILE_STRIDE];
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nb * 16; j++) out[i * SK_TILE_STRIDE + j] = 0;
    for (int b = 0; b < blocks; b++) {
        tile(mr, a + b * SK_BLOCK_INPUTS, a_stride, w + (size_t)b * SK_BLOCK_INPUTS * 16, block_bytes, nb,
             SK_BLOCK_INPUTS / 4, acc);
        for (int i = 0; i < mr; i++) {
            const float ascale = ascales[i * blocks + b];
            for (int j = 0; j < nb * 16; j++) {
                const size_t meta = (size_t)(j / 16) * meta_stride + (size_t)b * 16 + j % 16;
                float *y = out + i * SK_TILE_STRIDE + j;
                *y = fmaf((float)acc[i * SK_TILE_STRIDE + j], wscales[meta] * ascale, *y);
            }
        }
    }
}

void sk_gemm_q8(sk_path path, const int8_t *q, const float *qscales, int rows, int in_count,
                const int8_t *packed, const float *wscales, const int32_t *wsums, const float *bias,
                int out_count, int block_first, int block_end, float *out, int out_stride) {
    const int padded = sk_blocked_in(in_count);
    const int blocks = sk_input_blocks(in_count);
    const size_t block_bytes = (size_t)16 * padded;
    const size_t meta_stride = (size_t)16 * blocks;
    sk_tile_fn tile = sk_tile_scalar;
    int max_rows = 8, max_blocks = 2;
#if defined(__x86_64__) || defined(__i386__)
    if (path == SK_PATH_VNNI) max_rows = SK_BLOCKED_VNNI_ROWS;
    if (path == SK_PATH_AVX2) { tile = sk_tile_avx2; max_rows = 4; max_blocks = 1; }
#endif
    float sums[8 * SK_TILE_STRIDE];
    // Weight blocks outside, rows inside: a decoder step's few rows read each
    // weight block from memory once (the product is memory bound there).
    for (int block = block_first; block < block_end; block += max_blocks) {
        const int nb = block_end - block < max_blocks ? block_end - block : max_blocks;
        const int first = block * 16;
        const int last = first + nb * 16 < out_count ? first + nb * 16 : out_count;
        const int8_t *w = packed + (size_t)block * block_bytes;
        const float *ws = wscales + (size_t)block * meta_stride;
        const int32_t *wsum = wsums + (size_t)block * meta_stride;
        for (int r = 0; r < rows; r += max_rows) {
            const int mr = rows - r < max_rows ? rows - r : max_rows;
            const int8_t *a = q + (size_t)r * padded;
            const float *as = qscales + (size_t)r * blocks;
#if defined(__x86_64__) || defined(__i386__)
            if (path == SK_PATH_VNNI)
                sk_blocked_tile_vnni(mr, a, padded, as, blocks, w, block_bytes, ws, wsum, meta_stride, nb, sums);
            else
#endif
                blocked_tile_generic(tile, mr, a, padded, as, blocks, w, block_bytes, ws, wsum, meta_stride, nb,
                                     sums);
            for (int i = 0; i < mr; i++) {
                float *y = out + (size_t)(r + i) * out_stride;
                const float *s = sums + i * SK_TILE_STRIDE;
                if (bias) {
                    for (int n = first; n < last; n++) y[n] = s[n - first] + bias[n];
                } else {
                    for (int n = first; n < last; n++) y[n] = s[n - first];
                }
            }
        }
    }
}
