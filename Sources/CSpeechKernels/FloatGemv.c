// Int8 weights with float activations: the weights are dequantized as they
// are read and every product and sum is float. Quantizing the activations
// per row (sk_gemm_s8) costs accuracy where a row has outliers; keeping them
// float costs only the weight's own rounding. Decoder steps (a few rows) take
// the fused kernel, reading each weight byte once per row from cache; longer
// inputs dequantize panels of rows with sk_unpack_blocks and run sgemm on them.
#include "CSpeechKernels.h"
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/// Byte offset of group `g`, row `j` of a block (see the header's layout).
static inline size_t group_offset(int g, int j) { return (size_t)g * 64 + (size_t)j * 4; }

void sk_unpack_blocks(const int8_t *packed, const float *scales, int in_count, int out_count,
                      int block_first, int block_end, float *out) {
    const int padded = sk_padded_in(in_count);
    const size_t block_bytes = (size_t)16 * padded;
    for (int block = block_first; block < block_end; block++) {
        const int8_t *w = packed + (size_t)block * block_bytes;
        for (int j = 0; j < 16; j++) {
            const int row = block * 16 + j;
            if (row >= out_count) return;
            const float scale = scales[row];
            float *y = out + (size_t)(row - block_first * 16) * in_count;
            for (int k = 0; k < in_count; k++) y[k] = (float)w[group_offset(k / 4, j) + k % 4] * scale;
        }
    }
}

/// The reference: the same sums in plain C, in input order.
static void gemv_scalar(const float *x, int rows, int in_count, const int8_t *packed, const float *wscales,
                        const float *bias, int out_count, int block_first, int block_end, float *out, int out_stride) {
    const size_t block_bytes = (size_t)16 * sk_padded_in(in_count);
    for (int block = block_first; block < block_end; block++) {
        const int8_t *w = packed + (size_t)block * block_bytes;
        for (int j = 0; j < 16 && block * 16 + j < out_count; j++) {
            const int n = block * 16 + j;
            for (int r = 0; r < rows; r++) {
                const float *xr = x + (size_t)r * in_count;
                float sum = 0;
                for (int k = 0; k < in_count; k++) sum += xr[k] * (float)w[group_offset(k / 4, j) + k % 4];
                out[(size_t)r * out_stride + n] = sum * wscales[n] + (bias ? bias[n] : 0);
            }
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
#define AVX2_FMA __attribute__((target("avx2,fma")))

/// Four weights of two rows (8 bytes: row j then row j+1) as float.
static inline AVX2_FMA __attribute__((always_inline)) __m256 widen(const int8_t *eight) {
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)eight)));
}

/// Sums of the 16 rows of one block against one activation row. acc[i]
/// holds rows 2i (low half) and 2i+1 (high half), four inputs each.
static inline AVX2_FMA __attribute__((always_inline)) void
block_row(const float *xr, int in_count, const int8_t *w, float *sums) {
    __m256 acc[8];
    for (int i = 0; i < 8; i++) acc[i] = _mm256_setzero_ps();
    const int full = in_count / 4;
    for (int g = 0; g < full; g++) {
        const __m128 x4 = _mm_loadu_ps(xr + 4 * g);
        const __m256 xv = _mm256_insertf128_ps(_mm256_castps128_ps256(x4), x4, 1);
        const int8_t *p = w + (size_t)g * 64;
        for (int i = 0; i < 8; i++) acc[i] = _mm256_fmadd_ps(widen(p + 8 * i), xv, acc[i]);
    }
    if (in_count % 4) {
        // The last group's missing inputs read as zero (their weights are
        // zero too, but the memory past the row may hold Inf or NaN).
        float tail[4] = {0, 0, 0, 0};
        memcpy(tail, xr + 4 * full, sizeof(float) * (size_t)(in_count % 4));
        const __m128 x4 = _mm_loadu_ps(tail);
        const __m256 xv = _mm256_insertf128_ps(_mm256_castps128_ps256(x4), x4, 1);
        const int8_t *p = w + (size_t)full * 64;
        for (int i = 0; i < 8; i++) acc[i] = _mm256_fmadd_ps(widen(p + 8 * i), xv, acc[i]);
    }
    // Two rounds of pairwise adds leave, per 128-bit half, one sum per row:
    // low half rows 0, 2, 4, 6 (of the four accumulators), high half 1, 3, 5, 7.
    for (int h = 0; h < 2; h++) {
        const __m256 a = _mm256_hadd_ps(acc[4 * h], acc[4 * h + 1]);
        const __m256 b = _mm256_hadd_ps(acc[4 * h + 2], acc[4 * h + 3]);
        float t[8];
        _mm256_storeu_ps(t, _mm256_hadd_ps(a, b));
        float *s = sums + 8 * h;
        s[0] = t[0]; s[2] = t[1]; s[4] = t[2]; s[6] = t[3];
        s[1] = t[4]; s[3] = t[5]; s[5] = t[6]; s[7] = t[7];
    }
}

AVX2_FMA static void gemv_avx2(const float *x, int rows, int in_count, const int8_t *packed, const float *wscales,
                               const float *bias, int out_count, int block_first, int block_end, float *out,
                               int out_stride) {
    const size_t block_bytes = (size_t)16 * sk_padded_in(in_count);
    float sums[16];
    for (int block = block_first; block < block_end; block++) {
        const int8_t *w = packed + (size_t)block * block_bytes;
        const int first = block * 16;
        const int count = out_count - first < 16 ? out_count - first : 16;
        // The block (8-32 KB) stays in L1/L2 across the rows.
        for (int r = 0; r < rows; r++) {
            block_row(x + (size_t)r * in_count, in_count, w, sums);
            float *y = out + (size_t)r * out_stride + first;
            // Not `bias ? bias[j] : 0` per output: the compiler makes that a
            // masked load, which from NULL (the bias-free logits) takes a
            // microcode assist on every vector.
            if (bias) {
                for (int j = 0; j < count; j++) y[j] = sums[j] * wscales[first + j] + bias[first + j];
            } else {
                for (int j = 0; j < count; j++) y[j] = sums[j] * wscales[first + j] + 0.0f;
            }
        }
    }
}
#endif

int sk_float_gemv_supported(sk_path path) {
    switch (path) {
    case SK_PATH_SCALAR: return 1;
#if defined(__x86_64__) || defined(__i386__)
    case SK_PATH_AVX2:
    case SK_PATH_VNNI: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    default: return 0;
    }
}

void sk_gemv_w8(sk_path path, const float *x, int rows, int in_count, const int8_t *packed, const float *wscales,
                const float *bias, int out_count, int block_first, int block_end, float *out, int out_stride) {
#if defined(__x86_64__) || defined(__i386__)
    if (path != SK_PATH_SCALAR && sk_float_gemv_supported(path)) {
        gemv_avx2(x, rows, in_count, packed, wscales, bias, out_count, block_first, block_end, out, out_stride);
        return;
    }
#endif
    gemv_scalar(x, rows, in_count, packed, wscales, bias, out_count, block_first, block_end, out, out_stride);
}
