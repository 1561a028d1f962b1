// The driver of the int8 kernels: path choice, weight packing, activation
// quantization, the portable tile, and the blocked loop every path shares.
#include "CSpeechKernels.h"
#include "Tiles.h"
#include <math.h>
#include <string.h>

sk_path sk_best_path(void) {
    if (sk_path_supported(SK_PATH_VNNI)) return SK_PATH_VNNI;
    if (sk_path_supported(SK_PATH_AVX2)) return SK_PATH_AVX2;
    return SK_PATH_SCALAR;
}

int sk_path_supported(sk_path path) {
    switch (path) {
    case SK_PATH_SCALAR: return 1;
#if defined(__x86_64__) || defined(__i386__)
    case SK_PATH_AVX2: return __builtin_cpu_supports("avx2");
    case SK_PATH_VNNI:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vnni");
#endif
    default: return 0;
    }
}

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

/// The largest |x[k]| (NaNs skipped). Eight running maxima, one per lane,
/// so that the compiler can keep them in a vector (a single running maximum
/// stays scalar: it was 90% of the quantizing's time); a maximum does not
/// depend on the order it is taken in, so the result is the same.
static inline __attribute__((always_inline)) float maximum_magnitude(const float *x, int count) {
    float lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int k = 0;
    for (; k + 8 <= count; k += 8)
        for (int l = 0; l < 8; l++) {
            const float a = __builtin_fabsf(x[k + l]);
            lanes[l] = a > lanes[l] ? a : lanes[l];
        }
    float m = 0;
    for (int l = 0; l < 8; l++) m = lanes[l] > m ? lanes[l] : m;
    for (; k < count; k++) {
        const float a = __builtin_fabsf(x[k]);
        m = a > m ? a : m;
    }
    return m;
}

/// Byte offset of weight (row, k) in the packed layout.
static inline size_t packed_offset(int row, int k, int padded_in) {
    return (size_t)(row / 16) * 16 * padded_in + (size_t)(k / 4) * 64 + (row % 16) * 4 + k % 4;
}

/// Inputs a row is quantized in at a time before its groups of 4 are
/// stored (a multiple of 4).
enum { PACK_CHUNK = 512 };

/// One row quantized — by `inverses[k]` per input, or by `inverse` for
/// all when `inverses` is NULL — into packed row `row`: each chunk of
/// inputs into a buffer first (the compiler vectorizes that loop), then
/// its groups of 4 to their places 64 bytes apart. Returns the byte sum.
static inline __attribute__((always_inline)) int32_t
pack_row(const float *source, int in_count, int padded, int row, const float *inverses, float inverse,
         int8_t *packed) {
    int8_t bytes[PACK_CHUNK];
    int8_t *block = packed + packed_offset(row, 0, padded);
    int32_t sum = 0;
    for (int first = 0; first < padded; first += PACK_CHUNK) {
        const int end = first + PACK_CHUNK < padded ? first + PACK_CHUNK : padded;
        const int real = end < in_count ? end : in_count;
        // Two loops, not a test per input: the compiler made the test a
        // masked load of `inverses`, which from NULL takes a microcode
        // assist on every vector (2.2x the load time of an int8 model).
        if (inverses) {
            for (int k = first; k < real; k++) {
                bytes[k - first] = (int8_t)quantize(source[k], inverses[k]);
                sum += bytes[k - first];
            }
        } else {
            for (int k = first; k < real; k++) {
                bytes[k - first] = (int8_t)quantize(source[k], inverse);
                sum += bytes[k - first];
            }
        }
        for (int k = real; k < end; k++) bytes[k - first] = 0;
        for (int g = first / 4; g < end / 4; g++) memcpy(block + (size_t)g * 64, bytes + 4 * g - first, 4);
    }
    return sum;
}

/// `sk_pack_rows` and `sk_pack_rows_by_column`: rows `0 ..< count` of
/// `rows` (row stride `row_stride`) into packed rows `first ...`, each with
/// its own scale (`inverses` NULL: written to `scales`) or the columns'.
static inline __attribute__((always_inline)) void
pack_rows(const float *rows, int row_stride, int first, int count, int in_count, const float *inverses,
          int8_t *packed, float *scales, int32_t *sums) {
    const int padded = sk_padded_in(in_count);
    for (int i = 0; i < count; i++) {
        const float *source = rows + (size_t)i * row_stride;
        float inverse = 0;
        if (!inverses) {
            const float magnitude = maximum_magnitude(source, in_count);
            inverse = magnitude > 0 ? 127.0f / magnitude : 0;
            scales[first + i] = magnitude / 127.0f;
        }
        sums[first + i] = pack_row(source, in_count, padded, first + i, inverses, inverse, packed);
    }
}

static void pack_rows_portable(const float *rows, int row_stride, int first, int count, int in_count,
                               const float *inverses, int8_t *packed, float *scales, int32_t *sums) {
    pack_rows(rows, row_stride, first, count, in_count, inverses, packed, scales, sums);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2")))
static void pack_rows_avx2(const float *rows, int row_stride, int first, int count, int in_count,
                           const float *inverses, int8_t *packed, float *scales, int32_t *sums) {
    pack_rows(rows, row_stride, first, count, in_count, inverses, packed, scales, sums);
}
#endif

static void pack_rows_best(const float *rows, int row_stride, int first, int count, int in_count,
                           const float *inverses, int8_t *packed, float *scales, int32_t *sums) {
#if defined(__x86_64__) || defined(__i386__)
    if (sk_path_supported(SK_PATH_AVX2)) {
        pack_rows_avx2(rows, row_stride, first, count, in_count, inverses, packed, scales, sums);
        return;
    }
#endif
    pack_rows_portable(rows, row_stride, first, count, in_count, inverses, packed, scales, sums);
}

void sk_pack_rows(const float *rows, int first, int count, int in_count,
                  int8_t *packed, float *scales, int32_t *sums) {
    pack_rows_best(rows, in_count, first, count, in_count, NULL, packed, scales, sums);
}

void sk_pack_rows_by_column(const float *rows, int row_stride, int count, int in_count,
                            const float *inverse_scales, int8_t *packed, int32_t *sums) {
    pack_rows_best(rows, row_stride, 0, count, in_count, inverse_scales, packed, NULL, sums);
}

void sk_unpack_row(const int8_t *packed, const float *scales, int row, int in_count, float *out) {
    const int padded = sk_padded_in(in_count);
    const float scale = scales[row];
    for (int k = 0; k < in_count; k++) out[k] = (float)packed[packed_offset(row, k, padded)] * scale;
}

/// One row of activations quantized; `offset` is 128 for VNNI's unsigned form.
static inline __attribute__((always_inline)) void
quantize_row(const float *source, int in_count, int padded, int offset, int8_t *target, float *scale) {
    const float magnitude = maximum_magnitude(source, in_count);
    const float inverse = magnitude > 0 ? 127.0f / magnitude : 0;
    for (int k = 0; k < in_count; k++) target[k] = (int8_t)(uint8_t)(quantize(source[k], inverse) + offset);
    for (int k = in_count; k < padded; k++) target[k] = (int8_t)(uint8_t)offset;
    *scale = magnitude / 127.0f;
}

/// A row and what its quantization left over, each quantized: rows `2r`
/// and `2r + 1` of `q`. Adding the two levels' products gives the
/// activations to about 14 bits.
static inline __attribute__((always_inline)) void
quantize_row_residual(const float *source, int in_count, int padded, int offset, int8_t *target, float *scales,
                      float *residual) {
    quantize_row(source, in_count, padded, offset, target, scales);
    for (int k = 0; k < in_count; k++) {
        const int level = offset ? (int)(uint8_t)target[k] - offset : (int)target[k];
        residual[k] = source[k] - (float)level * scales[0];
    }
    quantize_row(residual, in_count, padded, offset, target + padded, scales + 1);
}

/// Every row quantized, with its residual as a second level when
/// `residual` (scratch of `in_count` floats) is given.
static inline __attribute__((always_inline)) void
quantize_rows_body(const float *x, int rows, int in_count, int offset, int8_t *q, float *scales, float *residual) {
    const int padded = sk_padded_in(in_count);
    for (int r = 0; r < rows; r++) {
        const float *source = x + (size_t)r * in_count;
        if (residual)
            quantize_row_residual(source, in_count, padded, offset, q + (size_t)2 * r * padded, scales + 2 * r,
                                  residual);
        else
            quantize_row(source, in_count, padded, offset, q + (size_t)r * padded, scales + r);
    }
}

static void quantize_rows_portable(const float *x, int rows, int in_count, int offset, int8_t *q, float *scales,
                                   float *residual) {
    quantize_rows_body(x, rows, in_count, offset, q, scales, residual);
}

#if defined(__x86_64__) || defined(__i386__)
/// The same C compiled for AVX2, so that the compiler vectorizes it 8 wide
/// (the portable build may assume SSE2 only).
__attribute__((target("avx2")))
static void quantize_rows_avx2(const float *x, int rows, int in_count, int offset, int8_t *q, float *scales,
                               float *residual) {
    quantize_rows_body(x, rows, in_count, offset, q, scales, residual);
}
#endif

static void quantize_rows(sk_path path, const float *x, int rows, int in_count, int8_t *q, float *scales,
                          float *residual) {
    // VNNI reads activations as unsigned bytes: a + 128 (zero is 128).
    const int offset = path == SK_PATH_VNNI ? 128 : 0;
#if defined(__x86_64__) || defined(__i386__)
    if (path != SK_PATH_SCALAR) {
        quantize_rows_avx2(x, rows, in_count, offset, q, scales, residual);
        return;
    }
#endif
    quantize_rows_portable(x, rows, in_count, offset, q, scales, residual);
}

void sk_quantize_rows(sk_path path, const float *x, int rows, int in_count, int8_t *q, float *scales) {
    quantize_rows(path, x, rows, in_count, q, scales, NULL);
}

void sk_quantize_rows_residual(sk_path path, const float *x, int rows, int in_count, int8_t *q, float *scales,
                               float *residual) {
    quantize_rows(path, x, rows, in_count, q, scales, residual);
}

/// The portable tile: the same sums in plain C (at most 8 rows, 2 blocks).
static void tile_scalar(int mr, const int8_t *a, int a_stride, const int8_t *w, size_t block_bytes,
                        int nb, int groups, int32_t *out) {
    for (int i = 0; i < mr; i++) {
        const int8_t *x = a + (size_t)i * a_stride;
        for (int b = 0; b < nb; b++) {
            const int8_t *block = w + b * block_bytes;
            for (int j = 0; j < 16; j++) {
                int32_t sum = 0;
                for (int g = 0; g < groups; g++) {
                    const int8_t *four = block + g * 64 + j * 4;
                    for (int k = 0; k < 4; k++) sum += (int32_t)x[g * 4 + k] * four[k];
                }
                out[i * SK_TILE_STRIDE + b * 16 + j] = sum;
            }
        }
    }
}

/// Activation rows per chunk: a chunk of 96 rows (up to 192 KB at 2048
/// inputs) stays in L2 while every weight panel of the thread's share
/// passes over it; a panel (one or two blocks, at most 64 KB) stays in L1/L2
/// across the chunk's tiles. Decoder steps (1-8 rows) are one chunk, so
/// their weights are read from memory once per call for all rows.
enum { ROW_CHUNK = 96 };

/// Scales a tile's int32 sums back to float into outputs `first ..< last`.
static inline __attribute__((always_inline)) void
store_tile(const int32_t *acc, int mr, int first, int last, int32_t correction, const int32_t *wsums,
           const float *wscales, const float *qscales, const float *bias, float *out, int out_stride) {
    for (int i = 0; i < mr; i++) {
        const float scale = qscales[i];
        const int32_t *sum = acc + i * SK_TILE_STRIDE;
        float *y = out + (size_t)i * out_stride;
        if (bias) {
            for (int n = first; n < last; n++)
                y[n] = (float)(sum[n - first] - correction * wsums[n]) * (scale * wscales[n]) + bias[n];
        } else {
            for (int n = first; n < last; n++) y[n] = (float)(sum[n - first] - correction * wsums[n]) * (scale * wscales[n]);
        }
    }
}

/// `store_tile` for rows of two levels (`sk_quantize_rows_residual`): tile
/// rows `2i` and `2i + 1` are one output row's two levels, added after scaling.
static inline __attribute__((always_inline)) void
store_tile_residual(const int32_t *acc, int mr, int first, int last, int32_t correction, const int32_t *wsums,
                    const float *wscales, const float *qscales, const float *bias, float *out, int out_stride) {
    for (int i = 0; i < mr / 2; i++) {
        const float high = qscales[2 * i], low = qscales[2 * i + 1];
        const int32_t *sum = acc + 2 * i * SK_TILE_STRIDE, *rest = sum + SK_TILE_STRIDE;
        float *y = out + (size_t)i * out_stride;
        // Two loops, not a test per output: the compiler made the test a
        // masked load of `bias`, which from NULL takes a microcode assist
        // on every vector (most of the product's time).
        for (int n = first; n < last; n++)
            y[n] = (float)(sum[n - first] - correction * wsums[n]) * (high * wscales[n])
                 + (float)(rest[n - first] - correction * wsums[n]) * (low * wscales[n]);
        if (bias)
            for (int n = first; n < last; n++) y[n] += bias[n];
    }
}

static void store_residual_portable(const int32_t *acc, int mr, int first, int last, int32_t correction,
                                    const int32_t *wsums, const float *wscales, const float *qscales,
                                    const float *bias, float *out, int out_stride) {
    store_tile_residual(acc, mr, first, last, correction, wsums, wscales, qscales, bias, out, out_stride);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2")))
static void store_residual_avx2(const int32_t *acc, int mr, int first, int last, int32_t correction,
                                const int32_t *wsums, const float *wscales, const float *qscales,
                                const float *bias, float *out, int out_stride) {
    store_tile_residual(acc, mr, first, last, correction, wsums, wscales, qscales, bias, out, out_stride);
}
#endif

typedef void (*store_fn)(const int32_t *, int, int, int, int32_t, const int32_t *, const float *, const float *,
                         const float *, float *, int);

static void store_portable(const int32_t *acc, int mr, int first, int last, int32_t correction, const int32_t *wsums,
                           const float *wscales, const float *qscales, const float *bias, float *out, int out_stride) {
    store_tile(acc, mr, first, last, correction, wsums, wscales, qscales, bias, out, out_stride);
}

#if defined(__x86_64__) || defined(__i386__)
/// The epilogue vectorized 8 wide: at K = 512 it is a fair share of a tile's
/// time (one scale-back per output against 512 products).
__attribute__((target("avx2")))
static void store_avx2(const int32_t *acc, int mr, int first, int last, int32_t correction, const int32_t *wsums,
                       const float *wscales, const float *qscales, const float *bias, float *out, int out_stride) {
    store_tile(acc, mr, first, last, correction, wsums, wscales, qscales, bias, out, out_stride);
}
#endif

/// The driver of `sk_gemm_s8` and `sk_gemm_s8_residual`: `levels` quantized
/// rows per output row (1 or 2), consecutive in `q`.
static void gemm_s8(sk_path path, int levels, const int8_t *q, const float *qscales, int rows, int in_count,
                    const int8_t *packed, const float *wscales, const int32_t *wsums, const float *bias,
                    int out_count, int block_first, int block_end, float *out, int out_stride) {
    sk_tile_fn tile = tile_scalar;
    store_fn store = levels == 2 ? store_residual_portable : store_portable;
    int max_rows = 8, max_blocks = 2;
#if defined(__x86_64__) || defined(__i386__)
    if (path == SK_PATH_VNNI) { tile = sk_tile_vnni; store = levels == 2 ? store_residual_avx2 : store_avx2; }
    if (path == SK_PATH_AVX2) {
        tile = sk_tile_avx2;
        store = levels == 2 ? store_residual_avx2 : store_avx2;
        max_rows = 4;
        max_blocks = 1;
    }
#endif
    const int padded = sk_padded_in(in_count);
    const int groups = padded / 4;
    const size_t block_bytes = (size_t)16 * padded;
    const int32_t correction = path == SK_PATH_VNNI ? 128 : 0;
    const int q_rows = rows * levels;   // a tile and a chunk hold whole output rows: 8, 4 and 96 are even
    int32_t acc[8 * SK_TILE_STRIDE];
    for (int chunk = 0; chunk < q_rows; chunk += ROW_CHUNK) {
        const int chunk_end = chunk + ROW_CHUNK < q_rows ? chunk + ROW_CHUNK : q_rows;
        for (int block = block_first; block < block_end; block += max_blocks) {
            const int nb = block_end - block < max_blocks ? block_end - block : max_blocks;
            const int first = block * 16;
            const int last = first + nb * 16 < out_count ? first + nb * 16 : out_count;
            const int8_t *w = packed + (size_t)block * block_bytes;
            for (int r = chunk; r < chunk_end; r += max_rows) {
                const int mr = chunk_end - r < max_rows ? chunk_end - r : max_rows;
                tile(mr, q + (size_t)r * padded, padded, w, block_bytes, nb, groups, acc);
                store(acc, mr, first, last, correction, wsums, wscales, qscales + r, bias,
                      out + (size_t)(r / levels) * out_stride, out_stride);
            }
        }
    }
}

void sk_gemm_s8(sk_path path, const int8_t *q, const float *qscales, int rows, int in_count,
                const int8_t *packed, const float *wscales, const int32_t *wsums, const float *bias,
                int out_count, int block_first, int block_end, float *out, int out_stride) {
    gemm_s8(path, 1, q, qscales, rows, in_count, packed, wscales, wsums, bias, out_count, block_first, block_end,
            out, out_stride);
}

void sk_gemm_s8_residual(sk_path path, const int8_t *q, const float *qscales, int rows, int in_count,
                         const int8_t *packed, const float *wscales, const int32_t *wsums, const float *bias,
                         int out_count, int block_first, int block_end, float *out, int out_stride) {
    gemm_s8(path, 2, q, qscales, rows, in_count, packed, wscales, wsums, bias, out_count, block_first, block_end,
            out, out_stride);
}
